package io.cheetah.kafka.aggregate;

import io.cheetah.kafka.fixtures.Aggregation;
import io.cheetah.kafka.fixtures.KafkaBroker;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.storage.mysql.EmbeddedMariaDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An aggregator started before its topic exists waits for it (logged) instead of failing, and consumes once the
 * topic is created.
 */
class AggregatorStartSystemTest
{
    @TempDir
    static Path dir;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void anAggregatorWaitsForItsTopicAndThenConsumes() throws Exception
    {
        try (KafkaBroker broker = KafkaBroker.start();
             EmbeddedMariaDb db = EmbeddedMariaDb.start(dir.resolve("mysql"), 0))
        {
            final ManualClock clock = new ManualClock(FaultTraffic.NOW);
            final FullServer server = Aggregation.start("agg-late", "aggregator", dir, broker, db, "trees-later",
                clock);
            try
            {
                Thread.sleep(2_000);
                final Aggregator aggregator = Aggregation.aggregator(server);
                assertThat(aggregator.running()).as("still waiting, not failed").isTrue();
                assertThat(aggregator.owned()).isEmpty();
                broker.createTopic("trees-later", 2);
                Aggregation.await(() -> Aggregation.spread(List.of(server), 2), 60_000);
                assertThat(aggregator.failure()).isNull();
            }
            finally
            {
                server.close();
            }
        }
    }
}
