package io.cheetah.server.dispatch;

import io.cheetah.analysis.Level;
import io.cheetah.server.config.ConfigException;
import io.cheetah.server.config.ConfigLoader;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AnalyzerLineupTest
{
    @Test
    void analyzerSettingsForAnUnknownAnalyzerStopStartUp()
    {
        final ServerConfig c = config("analyzers.transacton.enabled=false");
        assertThatThrownBy(() -> AnalyzerLineup.of(c, List.of(
            new CountingAnalyzerType("transaction", 2, Level.HIGH, t -> true))))
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("analyzers.transacton: unknown analyzer");
    }

    @Test
    void indexLevelAndEnablementComeFromConfiguration()
    {
        final ServerConfig c = config("analyzers.a.index=7",
            "analyzers.b.enabled=false", "analyzers.c.level=LOW");
        final var slots = AnalyzerLineup.of(c, List.of(new CountingAnalyzerType("a", 0, Level.HIGH, t -> true),
            new CountingAnalyzerType("b", 1, Level.HIGH, t -> true),
            new CountingAnalyzerType("c", 2, Level.HIGH, t -> true)));
        assertThat(slots).extracting(s -> s.name()).containsExactly("c", "a");
        assertThat(slots.get(0).level()).isEqualTo(Level.LOW);
        assertThat(slots.get(0).threshold()).isEqualTo(c.pipeline().ringSize() / 4);
        assertThat(slots.get(1).ring()).isEqualTo(7 % c.pipeline().rings());
        assertThat(slots.get(1).bit()).isEqualTo(1);
    }

    private static ServerConfig config(final String... sets)
    {
        return new ConfigLoader().set(List.of(sets)).load();
    }
}
