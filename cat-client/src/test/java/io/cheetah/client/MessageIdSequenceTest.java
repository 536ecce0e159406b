package io.cheetah.client;

import io.cheetah.message.MessageId;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class MessageIdSequenceTest
{
    @Test
    void idsCountWithinTheHourAndRestartInTheNext()
    {
        final AtomicLong clock = new AtomicLong(480_000L * MessageId.HOUR_MILLIS + 5);
        final MessageIdSequence ids = new MessageIdSequence("shop-web", "10.1.6.108", clock::get);
        assertThat(ids.next()).isEqualTo("shop-web-0a01066c-480000-0");
        assertThat(ids.next()).isEqualTo("shop-web-0a01066c-480000-1");
        clock.addAndGet(MessageId.HOUR_MILLIS);
        assertThat(ids.next()).isEqualTo("shop-web-0a01066c-480001-0");
        final MessageId parsed = MessageId.parse(ids.next());
        assertThat(parsed.domain()).isEqualTo("shop-web");
        assertThat(parsed.index()).isEqualTo(1);
    }

    @Test
    void uniqueAcrossThreads() throws Exception
    {
        final MessageIdSequence ids = new MessageIdSequence("d", "10.0.0.1", System::currentTimeMillis);
        final Set<String> seen = ConcurrentHashMap.newKeySet();
        final Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++)
        {
            threads[t] = new Thread(() ->
            {
                for (int i = 0; i < 20_000; i++)
                {
                    seen.add(ids.next());
                }
            });
            threads[t].start();
        }
        for (final Thread t : threads)
        {
            t.join();
        }
        assertThat(seen).hasSize(80_000);
    }
}
