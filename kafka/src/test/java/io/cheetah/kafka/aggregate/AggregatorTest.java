package io.cheetah.kafka.aggregate;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pacing of the aggregator's periodic checkpoints: every checkpointSeconds while rounds are short, spaced to ten
 * times a long round's duration once a busy hour makes them long.
 */
class AggregatorTest
{
    private static final long TEN_SECONDS = TimeUnit.SECONDS.toNanos(10);

    @Test
    void shortRoundsKeepTheConfiguredIntervalAndLongOnesAreSpacedOut()
    {
        assertThat(Aggregator.interval(TEN_SECONDS, TimeUnit.MILLISECONDS.toNanos(40))).isEqualTo(TEN_SECONDS);
        assertThat(Aggregator.interval(TEN_SECONDS, TimeUnit.SECONDS.toNanos(1))).isEqualTo(TEN_SECONDS);
        assertThat(Aggregator.interval(TEN_SECONDS, TimeUnit.MILLISECONDS.toNanos(9_700)))
            .as("a busy hour's 9.7 s round").isEqualTo(TimeUnit.SECONDS.toNanos(97));
    }
}
