package io.cheetah.server.metrics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GcPausesTest
{
    @Test
    void pausesFallIntoCumulativeBucketsAndTheLongestIsKept()
    {
        final GcPauses p = new GcPauses(false);
        p.record(400);
        p.record(7_000);
        p.record(7_000);
        p.record(3_000_000);
        p.record(9_000_000);
        final StringBuilder out = new StringBuilder();
        p.write(out);
        final String text = out.toString();
        assertThat(text).contains("cheetah_jvm_gc_pause_seconds_bucket{le=\"0.001\"} 1\n")
            .contains("cheetah_jvm_gc_pause_seconds_bucket{le=\"0.005\"} 1\n")
            .contains("cheetah_jvm_gc_pause_seconds_bucket{le=\"0.01\"} 3\n")
            .contains("cheetah_jvm_gc_pause_seconds_bucket{le=\"2.0\"} 3\n")
            .contains("cheetah_jvm_gc_pause_seconds_bucket{le=\"5.0\"} 4\n")
            .contains("cheetah_jvm_gc_pause_seconds_bucket{le=\"+Inf\"} 5\n")
            .contains("cheetah_jvm_gc_pause_seconds_count 5\n")
            .contains("cheetah_jvm_gc_pause_seconds_sum 12.0144\n")
            .contains("cheetah_jvm_gc_pause_max_seconds 9.0\n");
    }

    @Test
    void concurrentCyclesAreNotPauses()
    {
        assertThat(GcPauses.countsPauses("G1 Young Generation")).isTrue();
        assertThat(GcPauses.countsPauses("ZGC Pauses")).isTrue();
        assertThat(GcPauses.countsPauses("ZGC Cycles")).isFalse();
        assertThat(GcPauses.countsPauses("G1 Concurrent GC")).isFalse();
    }

    @Test
    void theJvmRecorderSeesARealCollection()
    {
        final GcPauses jvm = GcPauses.jvm();
        System.gc();
        final long deadline = System.currentTimeMillis() + 5_000;
        String text = "";
        while (System.currentTimeMillis() < deadline)
        {
            final StringBuilder out = new StringBuilder();
            jvm.write(out);
            text = out.toString();
            if (!text.contains("cheetah_jvm_gc_pause_seconds_count 0\n"))
            {
                break;
            }
            Thread.onSpinWait();
        }
        assertThat(text).doesNotContain("cheetah_jvm_gc_pause_seconds_count 0\n");
    }
}
