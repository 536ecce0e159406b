package io.cheetah.logview;

import io.cheetah.message.FlatTree;
import io.cheetah.logview.LogviewStore.Lookup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.cheetah.logview.TestTrees.HOUR;
import static io.cheetah.logview.TestTrees.HOUR_START;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Look-ups on other threads while the writer appends, seals and closes: every tree already appended is found,
 * byte for byte, whether it sits in the unsealed block, in a block being sealed, or in a closed file.
 */
class LogviewConcurrencyTest
{
    @TempDir
    Path dir;

    @Test
    void readersFindWhatTheWriterAppended() throws Exception
    {
        race(30_000, 16 * 1024, 1_500, 2, 15_000);
    }

    /**
     * The same race made frequent: 4 KB blocks sealed every few trees, the hour closed and reopened every 300
     * trees, and more readers than cores, so that look-ups keep landing in the middle of seals, closes and
     * reopens (a reader used to count a torn read of data being written as damage).
     */
    @Test
    void readersRacingFrequentSealsAndReopensSeeNoDamage() throws Exception
    {
        race(20_000, 4096, 400, 4, 300);
    }

    private void race(final int trees, final int blockBytes, final int maxPayload, final int readerCount,
        final int closeEvery) throws Exception
    {
        final Random rnd = new Random(11);
        final String[] ids = new String[trees];
        final byte[][] frames = new byte[trees][];
        for (int i = 0; i < trees; i++)
        {
            ids[i] = "svc-" + (i % 3 == 0 ? "0a000003" : "0a000004.12") + "-" + HOUR + "-" + i;
            frames[i] = TestTrees.frame(ids[i], 20 + rnd.nextInt(maxPayload), rnd);
        }
        final AtomicInteger appended = new AtomicInteger();
        final AtomicLong checked = new AtomicLong();
        final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, blockBytes)))
        {
            final LogviewWriter w = store.writer(0);
            final Thread writer = new Thread(() ->
            {
                final FlatTree t = new FlatTree();
                for (int i = 0; i < trees; i++)
                {
                    w.append(TestTrees.tree(t, "svc", ids[i], frames[i]), HOUR_START);
                    appended.lazySet(i + 1);
                    if (i % closeEvery == closeEvery - 1)
                    {
                        w.closeHour(HOUR_START); // readers must cope with files closing and reopening under them
                    }
                }
            });
            final List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < readerCount; r++)
            {
                final int seed = r;
                readers.add(new Thread(() ->
                {
                    final Random pick = new Random(seed);
                    try
                    {
                        while (appended.get() < trees)
                        {
                            final int n = appended.get();
                            if (n == 0)
                            {
                                continue;
                            }
                            // bias towards the newest trees, which are in the unsealed block
                            final int i = pick.nextBoolean() ? n - 1 - pick.nextInt(Math.min(n, 20)) : pick.nextInt(n);
                            final Lookup l = store.find(ids[i]);
                            if (l.status() != Lookup.Status.FOUND)
                            {
                                throw new AssertionError(ids[i] + " not found after append: " + l.reason());
                            }
                            if (!java.util.Arrays.equals(l.frame(), frames[i]))
                            {
                                throw new AssertionError(ids[i] + " found with other bytes");
                            }
                            checked.incrementAndGet();
                        }
                    }
                    catch (final Throwable e)
                    {
                        failures.add(e);
                    }
                }));
            }
            readers.forEach(Thread::start);
            writer.start();
            writer.join();
            for (final Thread t : readers)
            {
                t.join();
            }
            assertThat(failures).isEmpty();
            assertThat(checked.get()).isGreaterThan(100);
            assertThat(store.counters().damage()).isZero();
            assertThat(store.counters().misses()).isZero();
            assertThat(store.counters().lookupTimeouts()).isZero();
        }
    }
}
