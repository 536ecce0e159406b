package io.cheetah.server.metrics;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
        assertThat(GcPauses.countsPauses("Shenandoah Pauses")).isTrue();
        assertThat(GcPauses.countsPauses("Shenandoah Cycles")).isFalse();
        assertThat(GcPauses.countsPauses("G1 Concurrent GC")).isFalse();
    }

    @Test
    void theJvmRecorderSeesARealCollection()
    {
        assertThat(collectUntilAPause(5_000)).doesNotContain("cheetah_jvm_gc_pause_seconds_count 0\n");
    }

    /**
     * The start script's collector (Shenandoah, or ZGC on a JDK without it, as {@code scripts/cat-server} chooses)
     * reports its pauses to the recorder too.
     */
    @Test
    void theStartScriptsCollectorRecordsItsPauses() throws IOException, InterruptedException
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String collector = run(List.of(java, "-XX:+UseShenandoahGC", "-version")).exitValue() == 0 ?
            "-XX:+UseShenandoahGC" : "-XX:+UseZGC";
        final Process p = run(List.of(java, collector, "-cp", System.getProperty("java.class.path"),
            CollectAndPrint.class.getName()));
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).as(collector).contains("cheetah_jvm_gc_pause_seconds_bucket").doesNotContain("_count 0\n");
    }

    private static Process run(final List<String> command) throws IOException, InterruptedException
    {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(60, TimeUnit.SECONDS))
        {
            p.destroyForcibly();
            throw new AssertionError("no exit within 60 s: " + command);
        }
        return p;
    }

    /**
     * Asks for collections until this JVM's recorder has seen a pause, or the time is up.
     *
     * @param millis longest wait.
     * @return the recorder's metrics text then.
     */
    static String collectUntilAPause(final long millis)
    {
        final GcPauses jvm = GcPauses.jvm();
        final long deadline = System.currentTimeMillis() + millis;
        String text = "";
        while (System.currentTimeMillis() < deadline)
        {
            System.gc();
            final StringBuilder out = new StringBuilder();
            jvm.write(out);
            text = out.toString();
            if (!text.contains("cheetah_jvm_gc_pause_seconds_count 0\n"))
            {
                break;
            }
            Thread.onSpinWait();
        }
        return text;
    }

    /** Run in a forked JVM by {@link #theStartScriptsCollectorRecordsItsPauses}: collects until a pause is seen, prints. */
    static final class CollectAndPrint
    {
        public static void main(final String[] args)
        {
            System.out.print(collectUntilAPause(20_000));
        }
    }
}
