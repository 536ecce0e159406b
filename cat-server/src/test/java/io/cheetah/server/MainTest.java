package io.cheetah.server;

import io.cheetah.server.config.ConfigException;
import io.cheetah.server.config.ServerConfig;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MainTest
{
    @Test
    void commandLineOverridesApplyAfterTheFile()
    {
        final ServerConfig c = Main.parse(new String[] {"--set", "tcp.port=0",
            "--config", System.getProperty("cheetah.projectRoot", "..") + "/config/server.yaml", "--set=http.port=0"});
        assertThat(c.tcp().port()).isZero();
        assertThat(c.http().port()).isZero();
        assertThatThrownBy(() -> Main.parse(new String[] {"--port", "1"})).isInstanceOf(ConfigException.class)
            .hasMessageStartingWith("--port: unknown argument");
    }
}
