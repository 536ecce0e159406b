package io.cheetah.client;

import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The static facade, with configured servers only (no router answers, so the client uses client.xml-style servers),
 * and the per-tree message cap.
 */
class CatTest
{
    @AfterEach
    void destroy()
    {
        Cat.destroy();
    }

    @Test
    void staticApiSendsToTheConfiguredServerWhenNoRouterAnswers() throws Exception
    {
        try (TestListener listener = new TestListener())
        {
            // HTTP port 1: the router request fails, the configured TCP port is used.
            Cat.initialize(ClientConfig.builder().domain("static-app").ip("10.0.0.5").routerTimeoutMillis(200)
                .servers(List.of(new ServerAddress("127.0.0.1", listener.port(), 1))).build());
            final Transaction t = Cat.newTransaction("Job", "nightly");
            Cat.logEvent("Job", "step");
            Cat.logMetricForCount("jobs", 2);
            t.setStatus(new IllegalArgumentException("x"));
            t.complete();
            final MessageTree tree = listener.next(TestListener.root("Job", "nightly"), Duration.ofSeconds(10));
            assertThat(tree).isNotNull();
            assertThat(tree.domain()).isEqualTo("static-app");
            assertThat(tree.root().status()).isEqualTo("java.lang.IllegalArgumentException");
            assertThat(((TransactionMessage)tree.root()).children()).hasSize(2);
            assertThat(Cat.isInitialized()).isTrue();
        }
    }

    @Test
    void catsInitializeByDomainAndLogTraceWorkUnchanged() throws Exception
    {
        try (TestListener listener = new TestListener())
        {
            Cat.initializeByDomain("by-domain", listener.port(), 1, "127.0.0.1");
            assertThat(Cat.getClient().config().domain()).isEqualTo("by-domain");
            final Transaction t = Cat.newTransaction("Job", "traced");
            Cat.logTrace("Trace", "step", Transaction.SUCCESS, "detail");
            t.complete();
            final MessageTree tree = listener.next(TestListener.root("Job", "traced"), Duration.ofSeconds(10));
            assertThat(tree).isNotNull();
            assertThat(tree.domain()).isEqualTo("by-domain");
            final io.cheetah.message.Message trace = ((TransactionMessage)tree.root()).children().get(0);
            assertThat(trace.kind()).isEqualTo(io.cheetah.message.MessageKind.TRACE);
            assertThat(trace.data()).isEqualTo("detail");
        }
    }

    @Test
    void aTreeKeepsAtMostTheConfiguredNumberOfMessagesAndCountsTheRest() throws Exception
    {
        try (TestListener listener = new TestListener())
        {
            final CatClient client = Cat.initialize(ClientConfig.builder().domain("capped").ip("10.0.0.5")
                .routerTimeoutMillis(200).maxTreeMessages(5).maxDataChars(16)
                .servers(List.of(new ServerAddress("127.0.0.1", listener.port(), 1))).build());
            final Transaction root = Cat.newTransaction("Big", "tree");
            for (int i = 0; i < 10; i++)
            {
                Cat.logEvent("E", "e" + i, "0", "0123456789abcdefXYZ");
            }
            final Transaction late = Cat.newTransaction("Late", "dropped");
            late.complete();
            root.complete();
            final MessageTree tree = listener.next(TestListener.root("Big", "tree"), Duration.ofSeconds(10));
            final List<io.cheetah.message.Message> children = ((TransactionMessage)tree.root()).children();
            assertThat(children).extracting(io.cheetah.message.Message::name).containsExactly("e0", "e1", "e2", "e3");
            assertThat(children.get(0).data()).isEqualTo("0123456789abcdef");
            assertThat(client.counters().snapshot().messagesOverCap()).isEqualTo(7);
            assertThat(client.counters().snapshot().dataTruncated()).as("only the events kept are cut").isEqualTo(4);
        }
    }
}
