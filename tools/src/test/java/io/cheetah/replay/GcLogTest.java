package io.cheetah.replay;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GcLogTest
{
    private static MetricsSample metrics(final double max, final int... cumulative)
    {
        final String[] le = {"0.001", "0.002", "0.005", "0.01", "0.02", "+Inf"};
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < le.length; i++)
        {
            sb.append("cheetah_jvm_gc_pause_seconds_bucket{le=\"").append(le[i]).append("\"} ").append(cumulative[i])
                .append('\n');
        }
        sb.append("cheetah_jvm_gc_pause_max_seconds ").append(max).append('\n');
        return MetricsSample.parse(sb.toString());
    }

    @Test
    void theServersRunningMaximumWinsWhenItGrewInTheWindow()
    {
        assertThat(GcLog.maxPauseMillis(metrics(0.004, 1, 2, 3, 3, 3, 3), metrics(0.0123, 1, 2, 3, 3, 4, 4)))
            .isEqualTo(12.3, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void otherwiseTheHighestBucketThatGainedAPauseBoundsIt()
    {
        // the 40 ms maximum is older than the window; in the window two pauses of at most 5 ms were added
        assertThat(GcLog.maxPauseMillis(metrics(0.04, 1, 2, 3, 3, 3, 4), metrics(0.04, 2, 2, 5, 5, 5, 6)))
            .isEqualTo(5.0);
        assertThat(GcLog.maxPauseMillis(metrics(0.04, 1, 2, 3, 3, 3, 4), metrics(0.04, 1, 2, 3, 3, 3, 4)))
            .isZero();
        assertThat(GcLog.maxPauseMillis(MetricsSample.empty(), MetricsSample.parse("x 1\n"))).isEqualTo(-1);
    }
}
