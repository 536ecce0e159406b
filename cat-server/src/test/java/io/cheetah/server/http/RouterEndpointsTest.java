package io.cheetah.server.http;

import io.cheetah.server.config.ConfigLoader;
import io.cheetah.server.config.ServerConfig;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RouterEndpointsTest
{
    @Test
    void theAdvertisedHostComesFirstThenTheConfiguredServersEachOnce()
    {
        final ServerConfig c = config("router.advertisedHost=cat.example",
            "router.servers=10.0.0.2:2280,cat.example:2280,10.0.0.3:2280");
        assertThat(RouterEndpoints.of(c, 2280))
            .containsExactly("cat.example:2280", "10.0.0.2:2280", "10.0.0.3:2280");
    }

    @Test
    void aConcreteBindAddressIsAdvertisedAsItIs()
    {
        final ServerConfig c = config("tcp.host=127.0.0.1");
        assertThat(RouterEndpoints.of(c, 4321)).startsWith("127.0.0.1:4321");
    }

    @Test
    void aWildcardBindIsNeverAdvertised()
    {
        final ServerConfig c = config("tcp.host=0.0.0.0");
        assertThat(RouterEndpoints.of(c, 4321).get(0)).doesNotStartWith("0.0.0.0").endsWith(":4321");
    }

    private static ServerConfig config(final String... sets)
    {
        return new ConfigLoader().set(List.of(sets)).load();
    }
}
