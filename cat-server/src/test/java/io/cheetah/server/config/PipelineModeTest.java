package io.cheetah.server.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PipelineModeTest
{
    @Test
    void defaultsToCheetahAndAcceptsTheBenchmarkBaselines()
    {
        assertThat(new ConfigLoader().load().pipeline().mode()).isEqualTo(ServerConfig.Pipeline.CHEETAH);
        assertThat(new ConfigLoader().set(List.of("pipeline.mode=classic")).load().pipeline().mode())
            .isEqualTo(ServerConfig.Pipeline.CLASSIC);
        assertThat(new ConfigLoader().set(List.of("pipeline.mode=drain")).load().pipeline().mode())
            .isEqualTo(ServerConfig.Pipeline.DRAIN);
    }

    @Test
    void anUnknownModeIsRefusedNamingTheKey()
    {
        assertThatThrownBy(() -> new ConfigLoader().set(List.of("pipeline.mode=turbo")).load())
            .isInstanceOf(ConfigException.class).hasMessageContaining("pipeline.mode").hasMessageContaining("turbo");
    }
}
