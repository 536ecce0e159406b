package io.cheetah.server;

import io.cheetah.server.config.ConfigException;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.analysis.Level;
import org.junit.jupiter.api.Test;

import java.util.List;

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

    @Test
    void analyzerSettingsForAnUnknownAnalyzerStopStartUp()
    {
        final ServerConfig c = Main.parse(new String[] {"--set", "analyzers.transacton.enabled=false"});
        assertThatThrownBy(() -> CheetahServer.slots(c, List.of(
            new CountingAnalyzerType("transaction", 2, Level.HIGH, t -> true))))
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("analyzers.transacton: unknown analyzer");
    }

    @Test
    void indexLevelAndEnablementComeFromConfiguration()
    {
        final ServerConfig c = Main.parse(new String[] {"--set", "analyzers.a.index=7", "--set",
            "analyzers.b.enabled=false", "--set", "analyzers.c.level=LOW"});
        final var slots = CheetahServer.slots(c, List.of(new CountingAnalyzerType("a", 0, Level.HIGH, t -> true),
            new CountingAnalyzerType("b", 1, Level.HIGH, t -> true),
            new CountingAnalyzerType("c", 2, Level.HIGH, t -> true)));
        assertThat(slots).extracting(s -> s.name()).containsExactly("c", "a");
        assertThat(slots.get(0).level()).isEqualTo(Level.LOW);
        assertThat(slots.get(0).threshold()).isEqualTo(c.pipeline().ringSize() / 4);
        assertThat(slots.get(1).ring()).isEqualTo(7 % c.pipeline().rings());
        assertThat(slots.get(1).bit()).isEqualTo(1);
    }
}
