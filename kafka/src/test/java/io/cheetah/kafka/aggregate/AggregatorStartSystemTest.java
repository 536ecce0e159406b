package io.cheetah.kafka.aggregate;

import io.cheetah.kafka.fixtures.Aggregation;
import io.cheetah.kafka.fixtures.KafkaWorld;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An aggregator started before its topic exists waits for it (logged) instead of failing or making it with the
 * broker's default partitions, and consumes once the topic is created.
 */
class AggregatorStartSystemTest
{
    @RegisterExtension
    static final KafkaWorld WORLD = KafkaWorld.withDatabase();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void anAggregatorWaitsForItsTopicAndThenConsumes() throws Exception
    {
        final ManualClock clock = new ManualClock(FaultTraffic.NOW);
        final FullServer server = Aggregation.start("agg-late", "aggregator", WORLD, "trees-later", clock);
        try
        {
            Thread.sleep(2_000);
            final Aggregator aggregator = Aggregation.aggregator(server);
            assertThat(aggregator.running()).as("still waiting, not failed").isTrue();
            assertThat(aggregator.owned()).isEmpty();
            WORLD.broker().createTopic("trees-later", 3);
            Aggregation.await(() -> Aggregation.spread(List.of(server), 3), 60_000);
            assertThat(aggregator.failure()).isNull();
        }
        finally
        {
            server.close();
        }
    }
}
