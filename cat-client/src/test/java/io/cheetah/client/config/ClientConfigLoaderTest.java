package io.cheetah.client.config;

import io.cheetah.client.CatClient;
import io.cheetah.client.Transaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClientConfigLoaderTest
{
    @TempDir
    Path home;

    private ClientConfig load(final Map<String, String> props, final Map<String, String> env, final ClassLoader cl)
    {
        final java.util.HashMap<String, String> p = new java.util.HashMap<>(props);
        p.putIfAbsent(ClientConfig.HOME, home.toString());
        return new ClientConfigLoader(p, env, cl).load();
    }

    @Test
    void defaultsWhenNothingIsConfigured()
    {
        final ClientConfig c = load(Map.of(), Map.of(), null);
        assertThat(c.problems()).isEmpty();
        assertThat(c.enabled()).isTrue();
        assertThat(c.domain()).isEqualTo("unknown");
        assertThat(c.servers()).isEmpty();
        assertThat(c.queueSize()).isEqualTo(5000);
        assertThat(c.highQueueSize()).isEqualTo(2500);
        assertThat(c.heartbeatIntervalMillis()).isEqualTo(60_000);
        assertThat(c.routerIntervalMillis()).isEqualTo(60_000);
        assertThat(c.ip()).matches("\\d+\\.\\d+\\.\\d+\\.\\d+");
    }

    @Test
    void readsCatClientXml() throws Exception
    {
        Files.writeString(home.resolve("client.xml"), """
            <?xml version="1.0" encoding="utf-8"?>
            <config mode="client">
                <servers>
                    <server ip="10.1.1.1" port="2281" http-port="8081"/>
                    <server ip="10.1.1.2" enabled="false"/>
                    <server ip="10.1.1.3"/>
                </servers>
                <domain id="from-xml"/>
            </config>
            """);
        final ClientConfig c = load(Map.of(), Map.of(), null);
        assertThat(c.problems()).isEmpty();
        assertThat(c.servers()).containsExactly(new ServerAddress("10.1.1.1", 2281, 8081),
            new ServerAddress("10.1.1.3", 2280, 8080));
        assertThat(c.domain()).isEqualTo("from-xml");
    }

    @Test
    void clientXmlCanDisableTheClient() throws Exception
    {
        Files.writeString(home.resolve("client.xml"), "<config enabled=\"false\"><servers/></config>");
        assertThat(load(Map.of(), Map.of(), null).enabled()).isFalse();
        assertThat(load(Map.of(ClientConfig.ENABLED, "true"), Map.of(), null).enabled()).isTrue();
    }

    @Test
    void badClientXmlIsReportedAndTheClientStillWorks() throws Exception
    {
        final Path xml = home.resolve("client.xml");
        Files.writeString(xml, "<config><servers><server ip=\"10.1.1.1\"</servers>");
        final ClientConfig c = load(Map.of(ClientConfig.DOMAIN, "shop"), Map.of(), null);
        assertThat(c.problems()).singleElement().asString()
            .startsWith(xml.toString() + ": not well-formed XML").endsWith("; ignoring the file");
        assertThat(c.servers()).isEmpty();
        assertThat(c.domain()).isEqualTo("shop");

        try (CatClient client = CatClient.start(c.toBuilder().routerTimeoutMillis(100).build()))
        {
            final Transaction t = client.newTransaction("Still", "works");
            t.complete();
            assertThat(t.isCompleted()).isTrue();
            assertThat(client.counters().snapshot().produced()).isPositive();
        }
    }

    @Test
    void badServerPortInClientXmlNamesTheServer() throws Exception
    {
        final Path xml = home.resolve("client.xml");
        Files.writeString(xml, "<config><servers><server ip=\"10.1.1.1\" port=\"70000\"/></servers></config>");
        final ClientConfig c = load(Map.of(), Map.of(), null);
        assertThat(c.problems()).singleElement().asString()
            .contains(xml.toString()).contains("<server ip=\"10.1.1.1\">").contains("port 70000 is not a TCP port");
        assertThat(c.servers()).isEmpty();
    }

    @Test
    void wrongRootElementIsReported() throws Exception
    {
        Files.writeString(home.resolve("client.xml"), "<settings/>");
        assertThat(load(Map.of(), Map.of(), null).problems()).singleElement().asString()
            .contains("root element is <settings>, expected <config>");
    }

    @Test
    void badPropertiesFallBackToDefaultsWithMessagesNamingTheKey()
    {
        final ClientConfig c = load(Map.of(ClientConfig.QUEUE_SIZE, "lots", ClientConfig.HEARTBEAT_INTERVAL, "-5",
            ClientConfig.ENABLED, "maybe", ClientConfig.IP, "10.0.0.300", ClientConfig.SERVERS, "a:b"), Map.of(), null);
        assertThat(c.queueSize()).isEqualTo(5000);
        assertThat(c.heartbeatIntervalMillis()).isEqualTo(60_000);
        assertThat(c.enabled()).isTrue();
        assertThat(c.servers()).isEmpty();
        assertThat(c.problems()).containsExactlyInAnyOrder(
            "cat.queue.size: 'lots' is not an integer; using the default",
            "cat.heartbeat.interval.millis: -5 is outside 10..86400000; using the default",
            "cat.enabled: 'maybe' is not true or false; using true",
            "cat.ip: '10.0.0.300' is not an IPv4 address; using the default",
            "cat.servers: 'a:b' is not host[:port[:httpPort]] (For input string: \"b\"); using no servers");
    }

    @Test
    void propertiesBeatEnvironmentWhichBeatsFiles() throws Exception
    {
        Files.writeString(home.resolve("client.xml"),
            "<config><servers><server ip=\"10.9.9.9\"/></servers><domain id=\"xml-domain\"/></config>");
        final ClientConfig env = load(Map.of(), Map.of("CAT_DOMAIN", "env-domain", "CAT_SERVERS", "h1:1:2;h2",
            "CAT_QUEUE_SIZE", "77"), null);
        assertThat(env.domain()).isEqualTo("env-domain");
        assertThat(env.servers()).containsExactly(new ServerAddress("h1", 1, 2), new ServerAddress("h2", 2280, 8080));
        assertThat(env.queueSize()).isEqualTo(77);
        final ClientConfig props = load(Map.of(ClientConfig.DOMAIN, "prop-domain", ClientConfig.QUEUE_SIZE, "88"),
            Map.of("CAT_DOMAIN", "env-domain", "CAT_QUEUE_SIZE", "77"), null);
        assertThat(props.domain()).isEqualTo("prop-domain");
        assertThat(props.queueSize()).isEqualTo(88);
        assertThat(props.servers()).containsExactly(new ServerAddress("10.9.9.9", 2280, 8080));
    }

    @Test
    void domainFromAppProperties() throws Exception
    {
        final Path classes = home.resolve("classes");
        Files.createDirectories(classes.resolve("META-INF"));
        Files.writeString(classes.resolve("META-INF/app.properties"), "app.name=order-service\n");
        try (URLClassLoader cl = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null))
        {
            assertThat(load(Map.of(), Map.of(), cl).domain()).isEqualTo("order-service");
            assertThat(load(Map.of(ClientConfig.DOMAIN, "override"), Map.of(), cl).domain()).isEqualTo("override");
        }
    }

    @Test
    void builderRejectsBadValuesNamingTheKey()
    {
        assertThatThrownBy(() -> ClientConfig.builder().queueSize(0)).isInstanceOf(ClientConfigException.class)
            .hasMessage("cat.queue.size: 0 is outside 1..16777216");
        assertThatThrownBy(() -> ClientConfig.builder().reconnectMinMillis(500).reconnectMaxMillis(100).build())
            .hasMessageStartingWith("cat.reconnect.max.millis: 100 is below cat.reconnect.min.millis 500");
        assertThatThrownBy(() -> ClientConfigLoader.parseServers("h:1:2:3")).hasMessageContaining("'h:1:2:3'");
        assertThat(ClientConfigLoader.envName(ClientConfig.FLUSH_BYTES)).isEqualTo("CAT_FLUSH_BYTES");
        assertThat(ClientConfigLoader.parseServers(" a ; b:1 ,c:2:3")).extracting(ServerAddress::toString)
            .isEqualTo(List.of("a:2280:8080", "b:1:8080", "c:2:3"));
    }
}
