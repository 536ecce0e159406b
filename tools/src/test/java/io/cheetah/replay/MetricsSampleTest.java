package io.cheetah.replay;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsSampleTest
{
    private static final String TEXT = String.join("\n",
        "# HELP cheetah_trees_received_total Trees decoded.",
        "# TYPE cheetah_trees_received_total counter",
        "cheetah_trees_received_total 123456",
        "cheetah_analyzer_processed_total{analyzer=\"transaction\"} 100",
        "cheetah_analyzer_processed_total{analyzer=\"event\"} 90",
        "cheetah_analyzer_dropped_total{analyzer=\"transaction\",level=\"high\"} 0",
        "cheetah_analyzer_dropped_total{analyzer=\"problem\",level=\"mid\"} 7",
        "cheetah_analyzer_dropped_total{analyzer=\"top\",level=\"low\"} 11",
        "cheetah_analyzer_dropped_total{analyzer=\"cross\",level=\"low\"} 4",
        "cheetah_frames_bad_total{reason=\"frame_too_large\"} 2",
        "cheetah_jvm_gc_pause_seconds_total{gc=\"G1 \\\"Young\\\" Generation\"} 0.125",
        "cheetah_jvm_heap_bytes{area=\"used\"} 1.5E8 1700000000000",
        "garbage line without value {",
        "");

    @Test
    void readsNamesLabelsAndValues()
    {
        final MetricsSample m = MetricsSample.parse(TEXT);
        assertThat(m.sum("cheetah_trees_received_total")).isEqualTo(123456);
        assertThat(m.sum("cheetah_analyzer_processed_total")).isEqualTo(190);
        assertThat(m.sum("cheetah_analyzer_dropped_total", "level", "low")).isEqualTo(15);
        assertThat(m.sum("cheetah_analyzer_dropped_total", "level", "mid")).isEqualTo(7);
        assertThat(m.sum("cheetah_analyzer_dropped_total", "level", "high")).isZero();
        assertThat(m.byLabel("cheetah_analyzer_processed_total", "analyzer")).containsEntry("transaction", 100.0)
            .containsEntry("event", 90.0);
        assertThat(m.sum("cheetah_jvm_heap_bytes", "area", "used")).isEqualTo(1.5e8);
        assertThat(m.series()).anySatisfy(s -> assertThat(s.labels().get("gc")).isEqualTo("G1 \"Young\" Generation"));
        assertThat(m.skippedLines()).isEqualTo(1);
        assertThat(m.has("cheetah_frames_bad_total")).isTrue();
        assertThat(m.has("nothing")).isFalse();
    }
}
