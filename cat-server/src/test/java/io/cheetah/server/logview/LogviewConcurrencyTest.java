package io.cheetah.server.logview;

import io.cheetah.message.FlatTree;
import io.cheetah.server.logview.LogviewStore.Lookup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.cheetah.server.logview.TestTrees.HOUR;
import static io.cheetah.server.logview.TestTrees.HOUR_START;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Look-ups on other threads while the writer appends, seals and closes: every tree already appended is found,
 * byte for byte, whether it sits in the unsealed block, in a block being sealed, or in a closed file.
 */
class LogviewConcurrencyTest
{
    private static final int TREES = 30_000;

    @TempDir
    Path dir;

    @Test
    void readersFindWhatTheWriterAppended() throws Exception
    {
        final Random rnd = new Random(11);
        final String[] ids = new String[TREES];
        final byte[][] frames = new byte[TREES][];
        for (int i = 0; i < TREES; i++)
        {
            ids[i] = "svc-" + (i % 3 == 0 ? "0a000003" : "0a000004.12") + "-" + HOUR + "-" + i;
            frames[i] = TestTrees.frame(ids[i], 20 + rnd.nextInt(1500), rnd);
        }
        final AtomicInteger appended = new AtomicInteger();
        final AtomicLong checked = new AtomicLong();
        final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 16 * 1024)))
        {
            final LogviewWriter w = store.writer(0);
            final Thread writer = new Thread(() ->
            {
                final FlatTree t = new FlatTree();
                for (int i = 0; i < TREES; i++)
                {
                    w.append(TestTrees.tree(t, "svc", ids[i], frames[i]), HOUR_START);
                    appended.lazySet(i + 1);
                    if (i == TREES / 2)
                    {
                        w.closeHour(HOUR_START); // readers must cope with files closing under them
                    }
                }
            });
            final List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++)
            {
                final int seed = r;
                readers.add(new Thread(() ->
                {
                    final Random pick = new Random(seed);
                    try
                    {
                        while (appended.get() < TREES)
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
