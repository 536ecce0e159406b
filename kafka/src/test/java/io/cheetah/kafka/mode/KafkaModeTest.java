package io.cheetah.kafka.mode;

import io.cheetah.server.CheetahServer;
import io.cheetah.server.ServerMode;
import io.cheetah.server.config.ConfigException;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.fixtures.TestServers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Kafka mode is found on the class path when {@code kafka.bootstrapServers} is set, and refuses, by key, the
 * settings it cannot run with.
 */
class KafkaModeTest
{
    @Test
    void theModeIsFoundOnlyWhenKafkaIsConfigured()
    {
        assertThat(ServerMode.wantedBy(TestServers.config("kafka.bootstrapServers=127.0.0.1:9092")))
            .hasSize(1).first().isInstanceOf(KafkaMode.class);
        assertThat(ServerMode.wantedBy(TestServers.config())).isEmpty();
    }

    @Test
    void theMySqlClusterAndAnAggregatorWithoutStorageAreRefusedByKey()
    {
        final ServerConfig clustered = TestServers.config("kafka.bootstrapServers=127.0.0.1:9092",
            "cluster.enabled=true");
        assertThatThrownBy(() -> new KafkaMode().assemble(clustered, CheetahServer.builder(clustered)))
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("cluster.enabled:");
        final ServerConfig noStorage = TestServers.config("kafka.bootstrapServers=127.0.0.1:9092",
            "storage.enabled=false");
        assertThatThrownBy(() -> new KafkaMode().assemble(noStorage, CheetahServer.builder(noStorage)))
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("kafka.role:");
    }
}
