package io.cheetah.client;

import io.cheetah.codec.FrameWriter;
import io.cheetah.message.MessageId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
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
    void anIdMintedIntoAFrameIsTheStringFormsBytes()
    {
        final AtomicLong clock = new AtomicLong(480_000L * MessageId.HOUR_MILLIS + 5);
        final MessageIdSequence ids = new MessageIdSequence("shöp-web", "10.1.6.108", clock::get);
        for (int i = 0; i < 12; i++)
        {
            ids.next(); // index 12 next: two digits
        }
        final FrameWriter minted = new FrameWriter(16);
        ids.writeNext(minted);
        ids.multiInstances(true);
        ids.writeNext(minted);
        final FrameWriter expected = new FrameWriter(16);
        expected.writeString("shöp-web-0a01066c-480000-12");
        expected.writeString("shöp-web-0a01066c." + ProcessHandle.current().pid() + "-480000-13");
        assertThat(minted.toByteArray()).isEqualTo(expected.toByteArray());
        assertThat(ids.next()).as("minting into a frame counts like next()").endsWith("-480000-14");
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

    @Test
    void aRestartWithinTheHourStartsPastEveryIdTheOldProcessMayHaveMinted(@TempDir final Path home)
    {
        final AtomicLong clock = new AtomicLong(480_000L * MessageId.HOUR_MILLIS + 5);
        final MessageIdSequence first = new MessageIdSequence("shop-web", "10.1.6.108", clock::get, home.toString());
        long last = -1;
        for (int i = 0; i < 2 * MessageIdSequence.BLOCK + 5; i++)
        {
            last = MessageId.parse(first.next()).index();
        }
        assertThat(home.resolve("cat-shop-web.mark")).exists();
        // killed without a word: the next process of the same domain on the same host
        final MessageIdSequence second = new MessageIdSequence("shop-web", "10.1.6.108", clock::get, home.toString());
        assertThat(MessageId.parse(second.next()).index()).isGreaterThan(last);
        // a new hour starts from 0 again
        clock.addAndGet(MessageId.HOUR_MILLIS);
        final MessageIdSequence third = new MessageIdSequence("shop-web", "10.1.6.108", clock::get, home.toString());
        assertThat(third.next()).isEqualTo("shop-web-0a01066c-480001-0");
    }

    @Test
    void aMarkLeftByCatsOwnClientIsHonoured(@TempDir final Path home) throws Exception
    {
        // CAT's layout: hour (long), index (int), then the size of a domain map (int)
        Files.write(home.resolve("cat-shop-web.mark"), ByteBuffer.allocate(16).putLong(480_000L).putInt(500).putInt(0)
            .array());
        final MessageIdSequence ids = new MessageIdSequence("shop-web", "10.1.6.108",
            () -> 480_000L * MessageId.HOUR_MILLIS + 5, home.toString());
        assertThat(ids.next()).isEqualTo("shop-web-0a01066c-480000-1500");
    }

    @Test
    void anUnwritableHomeFallsBackToTheTemporaryDirectory(@TempDir final Path dir) throws Exception
    {
        final Path notADirectory = Files.write(dir.resolve("file"), new byte[] {1});
        final MessageIdSequence ids = new MessageIdSequence("fallback-" + System.nanoTime(), "10.0.0.1",
            () -> 480_000L * MessageId.HOUR_MILLIS, notADirectory.toString());
        assertThat(MessageId.parse(ids.next()).index()).isZero();
    }

    @Test
    void withSeveralInstancesPerHostIdsCarryTheProcessId()
    {
        final MessageIdSequence ids = new MessageIdSequence("shop-web", "10.1.6.108",
            () -> 480_000L * MessageId.HOUR_MILLIS);
        ids.multiInstances(true);
        final String id = ids.next();
        assertThat(id).isEqualTo("shop-web-0a01066c." + ProcessHandle.current().pid() + "-480000-0");
        assertThat(MessageId.parse(id)).isNotNull();
        ids.multiInstances(false);
        assertThat(ids.next()).isEqualTo("shop-web-0a01066c-480000-1");
    }
}
