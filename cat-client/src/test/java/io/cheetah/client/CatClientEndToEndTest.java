package io.cheetah.client;

import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.message.Event;
import io.cheetah.message.Heartbeat;
import io.cheetah.message.Message;
import io.cheetah.message.MessageId;
import io.cheetah.message.MessageKind;
import io.cheetah.message.MessageTree;
import io.cheetah.message.Metric;
import io.cheetah.message.TransactionMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client against a loopback listener (ServerSocket + TreeDecoder) and a loopback router: what the application
 * logs arrives as the server decodes it.
 */
class CatClientEndToEndTest
{
    private static final Duration WAIT = Duration.ofSeconds(10);

    private TestListener listener;
    private TestRouter router;
    private CatClient client;

    @BeforeEach
    void start() throws Exception
    {
        listener = new TestListener();
        router = new TestRouter("127.0.0.1:" + listener.port() + ";");
    }

    @AfterEach
    void stop() throws Exception
    {
        if (client != null)
        {
            client.close();
        }
        router.close();
        listener.close();
    }

    private CatClient startClient(final long heartbeatMillis)
    {
        // The configured TCP port is unused on purpose: only the router's answer leads to the listener.
        client = CatClient.start(ClientConfig.builder().domain("e2e-app").ip("10.1.6.108").hostname("host-a")
            .servers(List.of(new ServerAddress("127.0.0.1", 1, router.port())))
            .heartbeatIntervalMillis(heartbeatMillis).routerIntervalMillis(60_000).build());
        return client;
    }

    @Test
    void nestedTreeArrivesExactlyAsLogged() throws Exception
    {
        startClient(60_000);
        final long before = System.currentTimeMillis();
        final Transaction root = client.newTransaction("URL", "/order/create");
        root.addData("user", 42);
        root.addData("a=1&b=2");
        client.logEvent("Svc", "lookup", Message.SUCCESS, "k=v");
        final Transaction sql = client.newTransaction("SQL", "insert");
        client.logEvent("SQL.Method", "INSERT");
        sql.setStatus("fail");
        sql.setDurationInMillis(7);
        sql.complete();
        client.logError("while saving", new IllegalStateException("boom"));
        client.logMetricForCount("orders");
        client.logMetricForSum("amount", 12.5);
        client.logMetricForSum("amount-batch", 3.456, 3);
        client.logMetricForDuration("latency", 120);
        root.setStatus(Transaction.SUCCESS);
        root.complete();
        final long after = System.currentTimeMillis();

        final MessageTree tree = listener.next(TestListener.root("URL", "/order/create"), WAIT);
        assertThat(tree).as("tree arrived").isNotNull();
        assertThat(tree.domain()).isEqualTo("e2e-app");
        assertThat(tree.hostname()).isEqualTo("host-a");
        assertThat(tree.ipAddress()).isEqualTo("10.1.6.108");
        assertThat(tree.threadName()).isEqualTo(Thread.currentThread().getName());
        assertThat(tree.threadId()).isEqualTo(Long.toString(Thread.currentThread().getId()));
        final MessageId id = MessageId.parse(tree.messageId());
        assertThat(id).isNotNull();
        assertThat(id.domain()).isEqualTo("e2e-app");
        assertThat(id.ipHex()).isEqualTo("0a01066c");
        assertThat(id.hour()).isBetween(before / MessageId.HOUR_MILLIS, after / MessageId.HOUR_MILLIS);
        assertThat(tree.parentMessageId()).isEmpty();

        final TransactionMessage r = (TransactionMessage)tree.root();
        assertThat(r.status()).isEqualTo("0");
        assertThat(r.data()).isEqualTo("user=42&a=1&b=2");
        assertThat(r.timestampMillis()).isBetween(before, after);
        assertThat(r.durationMicros()).isBetween(0L, (after - before + 1) * 1000);
        final List<Message> children = r.children();
        assertThat(children).hasSize(7);

        assertThat(children.get(0)).isEqualTo(new Event("Svc", "lookup", "0", "k=v", children.get(0).timestampMillis()));
        final TransactionMessage s = (TransactionMessage)children.get(1);
        assertThat(s.type()).isEqualTo("SQL");
        assertThat(s.name()).isEqualTo("insert");
        assertThat(s.status()).isEqualTo("fail");
        assertThat(s.durationMicros()).isEqualTo(7000);
        assertThat(s.children()).containsExactly(
            new Event("SQL.Method", "INSERT", "0", "", s.children().get(0).timestampMillis()));

        final Message error = children.get(2);
        assertThat(error.kind()).isEqualTo(MessageKind.EVENT);
        assertThat(error.type()).isEqualTo("Error");
        assertThat(error.name()).isEqualTo("java.lang.IllegalStateException");
        assertThat(error.status()).isEqualTo("ERROR");
        assertThat(error.data()).startsWith("while saving java.lang.IllegalStateException: boom")
            .contains("at io.cheetah.client.CatClientEndToEndTest.nestedTreeArrivesExactlyAsLogged");

        assertThat(children.subList(3, 7)).extracting(Message::kind, Message::type, Message::name, Message::status,
            Message::data).containsExactly(
            org.assertj.core.groups.Tuple.tuple(MessageKind.METRIC, "", "orders", "C", "1"),
            org.assertj.core.groups.Tuple.tuple(MessageKind.METRIC, "", "amount", "S", "12.50"),
            org.assertj.core.groups.Tuple.tuple(MessageKind.METRIC, "", "amount-batch", "S,C", "3,3.46"),
            org.assertj.core.groups.Tuple.tuple(MessageKind.METRIC, "", "latency", "T", "120"));
        assertThat(listener.badFrames()).isZero();
        assertThat(Thread.getAllStackTraces().keySet()).filteredOn(th -> th.getName().startsWith("cat-"))
            .as("the client's threads never keep the JVM alive").isNotEmpty().allMatch(Thread::isDaemon);

        assertThat(router.queries()).isNotEmpty();
        assertThat(router.queries().get(0)).isEqualTo("domain=e2e-app&ip=10.1.6.108&op=json");
    }

    @Test
    void standaloneMessagesAreTreesOfTheirOwn() throws Exception
    {
        startClient(60_000);
        client.logEvent("Cache", "miss", "fail", "key=1");
        client.logHeartbeat("AppBeat", "worker-1", "0", "<status/>");
        client.logMetricForCount("clicks", 5);

        final MessageTree event = listener.next(t -> t.root().type().equals("Cache"), WAIT);
        assertThat(event.root()).isEqualTo(new Event("Cache", "miss", "fail", "key=1", event.root().timestampMillis()));
        final MessageTree beat = listener.next(t -> t.root().type().equals("AppBeat"), WAIT);
        assertThat(beat.root()).isEqualTo(new Heartbeat("AppBeat", "worker-1", "0", "<status/>",
            beat.root().timestampMillis()));
        final MessageTree metric = listener.next(t -> t.root().name().equals("clicks"), WAIT);
        assertThat(metric.root()).isEqualTo(new Metric("", "clicks", "C", "5", metric.root().timestampMillis()));
    }

    @Test
    void idsAreUniqueAndTheCurrentIdIsTheTreesId() throws Exception
    {
        startClient(60_000);
        final Set<String> currentIds = new HashSet<>();
        for (int i = 0; i < 200; i++)
        {
            final Transaction t = client.newTransaction("Loop", "n" + i);
            if (i % 2 == 0)
            {
                currentIds.add(client.getCurrentMessageId());
                assertThat(client.getCurrentMessageId()).isEqualTo(client.getCurrentMessageId());
            }
            t.complete();
        }
        assertThat(client.getCurrentMessageId()).as("no tree open").isNull();
        final Set<String> ids = new HashSet<>();
        final Set<String> evenIds = new HashSet<>();
        for (int i = 0; i < 200; i++)
        {
            final MessageTree tree = listener.next(t -> t.root().type().equals("Loop"), WAIT);
            assertThat(tree).isNotNull();
            assertThat(MessageId.parse(tree.messageId())).isNotNull();
            ids.add(tree.messageId());
            if (Integer.parseInt(tree.root().name().substring(1)) % 2 == 0)
            {
                evenIds.add(tree.messageId());
            }
        }
        assertThat(ids).hasSize(200);
        assertThat(evenIds).isEqualTo(currentIds);
    }

    @Test
    void remoteCallLinksCallerAndCallee() throws Exception
    {
        startClient(60_000);
        final Map<String, String> props = new HashMap<>();
        final Cat.Context ctx = new Cat.Context()
        {
            @Override
            public void addProperty(final String key, final String value)
            {
                props.put(key, value);
            }

            @Override
            public String getProperty(final String key)
            {
                return props.get(key);
            }
        };
        final Transaction call = client.newTransaction("Call", "svc.method");
        final String callerId = client.getCurrentMessageId();
        client.logRemoteCallClient(ctx);
        call.complete();

        final Thread callee = new Thread(() ->
        {
            final Transaction serve = client.newTransaction("Service", "svc.method");
            client.logRemoteCallServer(ctx);
            serve.complete();
        });
        callee.start();
        callee.join();

        final MessageTree caller = listener.next(TestListener.root("Call", "svc.method"), WAIT);
        final MessageTree served = listener.next(TestListener.root("Service", "svc.method"), WAIT);
        assertThat(caller.messageId()).isEqualTo(callerId);
        final Message remoteCall = ((TransactionMessage)caller.root()).children().get(0);
        assertThat(remoteCall.type()).isEqualTo("RemoteCall");
        assertThat(remoteCall.data()).isEqualTo(props.get(Cat.Context.CHILD));
        assertThat(served.messageId()).isEqualTo(props.get(Cat.Context.CHILD));
        assertThat(served.parentMessageId()).isEqualTo(callerId);
        assertThat(served.rootMessageId()).isEqualTo(callerId);
    }

    @Test
    void rebootAtStartAndHeartbeatsWithStatusXmlAndOwnCounters() throws Exception
    {
        startClient(150);
        final MessageTree reboot = listener.next(TestListener.root("System", "Reboot"), WAIT);
        assertThat(reboot).isNotNull();
        final Message rebootEvent = ((TransactionMessage)reboot.root()).children().get(0);
        assertThat(rebootEvent.type()).isEqualTo("Reboot");
        assertThat(rebootEvent.name()).isEqualTo("10.1.6.108");

        for (int i = 0; i < 10; i++)
        {
            client.newTransaction("Work", "w").complete();
        }
        // The first heartbeat may predate the work; a later one must count it.
        Element clientExt = null;
        for (int beat = 0; beat < 20 && clientExt == null; beat++)
        {
            final MessageTree status = listener.next(TestListener.root("System", "Status"), WAIT);
            assertThat(status).isNotNull();
            final Message hb = ((TransactionMessage)status.root()).children().get(0);
            assertThat(hb.kind()).isEqualTo(MessageKind.HEARTBEAT);
            assertThat(hb.type()).isEqualTo("Heartbeat");
            assertThat(hb.name()).isEqualTo("10.1.6.108");
            assertThat(hb.status()).isEqualTo("0");
            final Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(hb.data().getBytes(StandardCharsets.UTF_8)));
            final Element root = doc.getDocumentElement();
            assertThat(root.getTagName()).isEqualTo("status");
            assertThat(root.getAttribute("timestamp")).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}");
            for (final String element : List.of("runtime", "os", "disk", "disk-volume", "memory", "gc", "thread",
                "message"))
            {
                assertThat(root.getElementsByTagName(element).getLength()).as(element).isGreaterThan(0);
            }
            assertThat(Long.parseLong(((Element)root.getElementsByTagName("memory").item(0)).getAttribute("max")))
                .isPositive();
            final NodeList extensions = root.getElementsByTagName("extension");
            for (int i = 0; i < extensions.getLength(); i++)
            {
                final Element e = (Element)extensions.item(i);
                if (e.getAttribute("id").equals("CatClient") && detail(e, "Produced") >= 10)
                {
                    clientExt = e;
                }
            }
        }
        assertThat(clientExt).as("a heartbeat counted the 10 trees").isNotNull();
        assertThat(detail(clientExt, "Sent")).isGreaterThanOrEqualTo(0);
        assertThat(detail(clientExt, "Dropped")).isZero();
        assertThat(detail(clientExt, "QueueDepth")).isGreaterThanOrEqualTo(0);
    }

    private static double detail(final Element extension, final String id)
    {
        final NodeList details = extension.getElementsByTagName("extensionDetail");
        for (int i = 0; i < details.getLength(); i++)
        {
            final Element d = (Element)details.item(i);
            if (d.getAttribute("id").equals(id))
            {
                return Double.parseDouble(d.getAttribute("value"));
            }
        }
        throw new AssertionError("no detail " + id);
    }
}
