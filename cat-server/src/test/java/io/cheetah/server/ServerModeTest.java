package io.cheetah.server;

import io.cheetah.server.config.ConfigException;
import io.cheetah.server.fixtures.TestServers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Without the Kafka module on the class path, a configuration that asks for the Kafka mode stops start-up naming the
 * key, instead of running as a single server that ignores it.
 */
class ServerModeTest
{
    @Test
    void kafkaBootstrapServersWithoutTheKafkaModeOnTheClassPathIsRefusedByKey()
    {
        assertThatThrownBy(() -> ServerMode.wantedBy(TestServers.config("kafka.bootstrapServers=127.0.0.1:9092")))
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("kafka.bootstrapServers:");
        assertThat(ServerMode.wantedBy(TestServers.config())).isEmpty();
    }
}
