package io.cheetah.client.transport;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RouterClientTest
{
    @Test
    void parsesTheCatJsonAnswer() throws Exception
    {
        final Routes r = RouterClient.parse("{\"kvs\":{\"routers\":\"10.1.1.2:2280;10.1.1.3:2281;\",\"sample\":\"0.5\"," +
            "\"block\":\"false\",\"startTransactionTypes\":\"Cache.;Squirrel.\"}}", "test");
        assertThat(r.endpoints()).containsExactly(InetSocketAddress.createUnresolved("10.1.1.2", 2280),
            InetSocketAddress.createUnresolved("10.1.1.3", 2281));
        assertThat(r.sample()).isEqualTo(0.5);
        assertThat(r.block()).isFalse();
        assertThat(RouterClient.parse("{\"kvs\":{\"routers\":\"h:1\",\"block\":\"true\",\"sample\":\"-1\"}}", "t"))
            .isEqualTo(new Routes(java.util.List.of(InetSocketAddress.createUnresolved("h", 1)), 0.0, true));
    }

    @Test
    void readsCatsMultiInstancesProperty() throws Exception
    {
        assertThat(RouterClient.parse("{\"kvs\":{\"routers\":\"h:1\",\"multiInstances\":\"true\"}}", "t")
            .multiInstances()).isTrue();
        assertThat(RouterClient.parse("{\"kvs\":{\"routers\":\"h:1\"}}", "t").multiInstances()).isFalse();
    }

    @Test
    void answersWithoutRoutersAreErrors()
    {
        assertThatThrownBy(() -> RouterClient.parse("{\"kvs\":{\"sample\":\"1.0\"}}", "http://x"))
            .isInstanceOf(IOException.class).hasMessage("http://x: answer has no usable kvs.routers ('')");
        assertThatThrownBy(() -> RouterClient.parse("10.1.1.1:2280;", "http://x"))
            .isInstanceOf(IOException.class).hasMessageStartingWith("http://x: answer is not JSON");
        assertThat(RouterClient.parseRouters("a:1;bad;b:x;c:2;a:1;")).hasSize(2);
    }
}
