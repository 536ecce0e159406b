package io.cheetah.client.transport;

import io.cheetah.codec.Nt1Encoder;
import io.cheetah.message.Event;
import io.cheetah.message.Message;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SampleFolderTest
{
    private static OutboundTree request(final long urlMicros)
    {
        final TransactionMessage url = new TransactionMessage("URL", "/cart", Message.SUCCESS, "", 1_000, urlMicros);
        url.addChild(new TransactionMessage("SQL", "select", Message.SUCCESS, "", 1_000, 2_000));
        url.addChild(new Event("Cache", "get", Message.SUCCESS, "", 1_000));
        return new ModelTree(new MessageTree().domain("app").hostname("h").ipAddress("10.0.0.1").root(url),
            new Nt1Encoder());
    }

    private static SampleFolder folder()
    {
        return new SampleFolder("app", "h", "10.0.0.1");
    }

    @Test
    void durationsFallIntoTheBucketsOfCatsAggregators()
    {
        assertThat(SampleFolder.bucket(0)).isEqualTo(1);
        assertThat(SampleFolder.bucket(7)).isEqualTo(7);
        assertThat(SampleFolder.bucket(23)).isEqualTo(20);
        assertThat(SampleFolder.bucket(213)).isEqualTo(200);
        assertThat(SampleFolder.bucket(777)).isEqualTo(750);
        assertThat(SampleFolder.bucket(2_345)).isEqualTo(2_000);
        assertThat(SampleFolder.bucket(25_000)).isEqualTo(20_000);
        assertThat(SampleFolder.bucket(1_500_000)).isEqualTo(2_097_152);
        assertThat(SampleFolder.bucket(5_000_000)).isEqualTo(3_600_000);
    }

    @Test
    void foldedTreesComeOutAsCatsAggregatedTrees()
    {
        final SampleFolder folder = folder();
        assertThat(folder.fold(request(5_000))).isTrue();
        assertThat(folder.fold(request(23_000))).isTrue();
        final List<MessageTree> trees = folder.drain(9_000);
        assertThat(trees).hasSize(2);
        final Map<String, String> data = new HashMap<>();
        for (final MessageTree t : trees)
        {
            assertThat(t.domain()).isEqualTo("app");
            assertThat(t.root().type()).isEqualTo("System");
            for (final Message child : ((TransactionMessage)t.root()).children())
            {
                data.put(t.root().name() + " " + child.type() + "/" + child.name(), child.data());
            }
        }
        assertThat(data).hasSize(3).containsEntry("EventAggregator Cache/get", "@2;0")
            .containsEntry("TransactionAggregator SQL/select", "@2;0;4;2,2;");
        assertThat(data.get("TransactionAggregator URL//cart")).startsWith("@2;0;28;").contains("5,1").contains("20,1");
        assertThat(folder.drain(10_000)).as("nothing folded since").isEmpty();
    }

    @Test
    void aFoldRacingADrainLandsInOneDrainOrTheNext() throws Exception
    {
        final SampleFolder folder = folder();
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++)
        {
            final Thread th = new Thread(() ->
            {
                for (int i = 0; i < 50_000; i++)
                {
                    folder.fold(request(1_000));
                }
            });
            th.start();
            threads.add(th);
        }
        long events = 0;
        boolean running = true;
        while (running)
        {
            running = threads.stream().anyMatch(Thread::isAlive);
            for (final MessageTree tree : folder.drain(1))
            {
                for (final Message m : ((TransactionMessage)tree.root()).children())
                {
                    if (m.type().equals("Cache"))
                    {
                        events += Long.parseLong(m.data().substring(1, m.data().indexOf(';')));
                    }
                }
            }
        }
        for (final MessageTree tree : folder.drain(1))
        {
            for (final Message m : ((TransactionMessage)tree.root()).children())
            {
                if (m.type().equals("Cache"))
                {
                    events += Long.parseLong(m.data().substring(1, m.data().indexOf(';')));
                }
            }
        }
        assertThat(events).isEqualTo(200_000);
    }
}
