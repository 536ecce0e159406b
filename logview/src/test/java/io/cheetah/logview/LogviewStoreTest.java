package io.cheetah.logview;

import io.cheetah.message.FlatTree;
import io.cheetah.logview.LogviewStore.Lookup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static io.cheetah.logview.TestTrees.HOUR;
import static io.cheetah.logview.TestTrees.HOUR_START;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogviewStoreTest
{
    @TempDir
    Path dir;

    /** Writes trees of several domains, clients and pids into small blocks; returns id to frame. */
    private static Map<String, byte[]> write(final LogviewWriter w, final int n, final long seed)
    {
        final Random rnd = new Random(seed);
        final Map<String, byte[]> written = new HashMap<>();
        final FlatTree t = new FlatTree();
        final String[] domains = {"order-service", "pay", "a-b-c", "域名"};
        final String[] clients = {"0a000001", "0a000002", "c0000202.4711", "c0000202"};
        for (int i = 0; i < n; i++)
        {
            final String domain = domains[i % domains.length];
            final String id = domain + "-" + clients[(i / 4) % clients.length] + "-" + HOUR + "-" + i;
            final byte[] frame = TestTrees.frame(id, 50 + rnd.nextInt(3000), rnd);
            w.append(TestTrees.tree(t, domain, id, frame), HOUR_START);
            written.put(id, frame);
        }
        return written;
    }

    @Test
    void findsEveryTreeByteForByteAfterRestart()
    {
        final Map<String, byte[]> written;
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 8192)))
        {
            written = write(store.writer(0), 5_000, 1);
            assertThat(store.counters().treesStored()).isEqualTo(5_000);
        }
        try (LogviewStore reopened = new LogviewStore(TestTrees.settings(dir, 8192)))
        {
            final List<String> ids = new ArrayList<>(written.keySet());
            final Random rnd = new Random(2);
            for (int i = 0; i < 2_000; i++)
            {
                final String id = ids.get(rnd.nextInt(ids.size()));
                final Lookup found = reopened.find(id);
                assertThat(found.status()).as(id).isEqualTo(Lookup.Status.FOUND);
                assertThat(found.frame()).as(id).isEqualTo(written.get(id));
            }
            assertThat(reopened.find("pay-0a000001-" + HOUR + "-999999").status()).isEqualTo(Lookup.Status.NOT_FOUND);
            assertThat(reopened.find("order-service-0a000001-" + (HOUR + 5) + "-1").status())
                .isEqualTo(Lookup.Status.NOT_FOUND);
            assertThat(reopened.counters().damage()).isZero();
            assertThat(reopened.counters().misses()).isEqualTo(2);
            assertThat(Files.isDirectory(dir.resolve("logview/20261122/03"))).isTrue();
        }
    }

    @Test
    void unsealedTreesAreFoundSecondsAfterArrival()
    {
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 1 << 20)))
        {
            final Map<String, byte[]> written = write(store.writer(0), 40, 3);
            assertThat(store.counters().blocksSealed()).isZero();
            for (final Map.Entry<String, byte[]> e : written.entrySet())
            {
                assertThat(store.find(e.getKey()).frame()).as(e.getKey()).isEqualTo(e.getValue());
            }
        }
    }

    @Test
    void truncatedTailKeepsEarlierTreesAndIsCounted() throws IOException
    {
        final Map<String, byte[]> written;
        final LogviewWriter w;
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 8192)))
        {
            written = write(store.writer(0), 400, 4);
        }
        final Path dat = dir.resolve("logview/20261122/03/pay-p0.dat");
        final long size = Files.size(dat);
        try (FileChannel ch = FileChannel.open(dat, StandardOpenOption.WRITE))
        {
            ch.truncate(size - 100);
        }
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 8192)))
        {
            int found = 0;
            int lost = 0;
            for (final Map.Entry<String, byte[]> e : written.entrySet())
            {
                final Lookup l = store.find(e.getKey());
                if (l.status() == Lookup.Status.FOUND)
                {
                    assertThat(l.frame()).isEqualTo(e.getValue());
                    found++;
                }
                else
                {
                    assertThat(e.getKey()).startsWith("pay-");
                    lost++;
                }
            }
            assertThat(lost).isBetween(1, 20);
            assertThat(found).isEqualTo(400 - lost);
            assertThat(store.find("pay-0a000001-" + HOUR + "-1").frame()).isEqualTo(written.get("pay-0a000001-" + HOUR +
                "-1"));
            assertThat(store.counters().damage()).isGreaterThanOrEqualTo(1);

            // the writer reopens the damaged hour, cuts the torn tail and goes on
            final LogviewWriter again = store.writer(0);
            final FlatTree t = new FlatTree();
            final String id = "pay-0a000009-" + HOUR + "-7";
            final byte[] frame = TestTrees.frame(id, 300, new Random(5));
            again.append(TestTrees.tree(t, "pay", id, frame), HOUR_START);
            again.closeHour(HOUR_START);
            assertThat(store.find(id).frame()).isEqualTo(frame);
            assertThat(store.find("pay-0a000001-" + HOUR + "-1").status()).isEqualTo(Lookup.Status.FOUND);
        }
    }

    @Test
    void aCorruptBlockInTheMiddleLosesOnlyItsTrees() throws IOException
    {
        final Map<String, byte[]> written;
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 8192)))
        {
            written = write(store.writer(0), 400, 12);
        }
        final Path dat = dir.resolve("logview/20261122/03/a-b-c-p0.dat");
        try (FileChannel ch = FileChannel.open(dat, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
            ch.read(b, ch.size() / 2);
            b.put(0, (byte)~b.get(0)).rewind();
            ch.write(b, ch.size() / 2);
        }
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 8192)))
        {
            int lost = 0;
            for (final Map.Entry<String, byte[]> e : written.entrySet())
            {
                final Lookup l = store.find(e.getKey());
                if (l.status() == Lookup.Status.FOUND)
                {
                    assertThat(l.frame()).isEqualTo(e.getValue());
                }
                else
                {
                    assertThat(e.getKey()).startsWith("a-b-c-");
                    lost++;
                }
            }
            assertThat(lost).isBetween(1, 20);
            assertThat(store.counters().damage()).isEqualTo(lost);
        }
    }

    @Test
    void garbageAppendedToTheTailIsIgnored() throws IOException
    {
        final Map<String, byte[]> written;
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 8192)))
        {
            written = write(store.writer(0), 200, 6);
        }
        final Path dat = dir.resolve("logview/20261122/03/order-service-p0.dat");
        Files.write(dat, new byte[] {0x4C, 0x56, 0x42, 0x4B, 0, 0, 0, 5, 0, 0, 0, 9, 1, 2, 3, 4, 9, 9, 9, 9, 9},
            StandardOpenOption.APPEND);
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 8192)))
        {
            for (final Map.Entry<String, byte[]> e : written.entrySet())
            {
                assertThat(store.find(e.getKey()).frame()).as(e.getKey()).isEqualTo(e.getValue());
            }
            assertThat(store.counters().damage()).isEqualTo(1);
        }
    }

    @Test
    void reusedIdsReturnTheLastTreeWrittenAndPidIsPartOfTheKey()
    {
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 4096)))
        {
            final LogviewWriter w = store.writer(0);
            final FlatTree t = new FlatTree();
            final Random rnd = new Random(7);
            final String id = "cat-java-sender-c0000202-" + HOUR + "-0";
            byte[] last = null;
            for (int i = 0; i < 30; i++)
            {
                last = TestTrees.frame(id + "#" + i, 700, rnd);
                w.append(TestTrees.tree(t, "cat-java-sender", id, last), HOUR_START);
                assertThat(store.find(id).frame()).as("unsealed or sealed, after %d", i).isEqualTo(last);
            }
            final String pidId = "cat-java-sender-c0000202.99-" + HOUR + "-0";
            final byte[] pidFrame = TestTrees.frame(pidId, 200, rnd);
            w.append(TestTrees.tree(t, "cat-java-sender", pidId, pidFrame), HOUR_START);
            w.closeHour(HOUR_START);
            assertThat(store.find(id).frame()).isEqualTo(last);
            assertThat(store.find(pidId).frame()).isEqualTo(pidFrame);
            assertThat(store.find("cat-java-sender-c0000202.98-" + HOUR + "-0").status())
                .isEqualTo(Lookup.Status.NOT_FOUND);
        }
    }

    @Test
    void badIdsAreCountedNotStored()
    {
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 4096)))
        {
            final LogviewWriter w = store.writer(0);
            final FlatTree t = new FlatTree();
            final byte[] frame = TestTrees.frame("x", 100, new Random(8));
            w.append(TestTrees.tree(t, "d", "", frame), HOUR_START);
            w.append(TestTrees.tree(t, "d", "d-zz000001-" + HOUR + "-1", frame), HOUR_START);
            w.append(TestTrees.tree(t, "d", "d-0a000001-" + (HOUR - 5) + "-1", frame), HOUR_START);
            // an RPC id minted for another domain is stored under the id's domain
            w.append(TestTrees.tree(t, "caller", "callee-0a000001-" + HOUR + "-3", frame), HOUR_START);
            assertThat(store.counters().idsUnparsable()).isEqualTo(2);
            assertThat(store.counters().idHourOutOfRange()).isEqualTo(1);
            assertThat(store.counters().treesStored()).isEqualTo(1);
            assertThat(store.find("callee-0a000001-" + HOUR + "-3").frame()).isEqualTo(frame);
            assertThat(store.find("not-an-id").status()).isEqualTo(Lookup.Status.MALFORMED_ID);
            assertThat(store.counters().malformedLookups()).isEqualTo(1);
            assertThatThrownBy(() -> store.writer(0)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void domainsPerHourAreCapped()
    {
        final LogviewSettings s = new LogviewSettings(dir, 7, 4096, 60_000, 2, 65_536, 8, 10);
        try (LogviewStore store = new LogviewStore(s))
        {
            final LogviewWriter w = store.writer(0);
            final FlatTree t = new FlatTree();
            final byte[] frame = TestTrees.frame("x", 100, new Random(9));
            for (final String d : new String[] {"a", "b", "c", "../../etc"})
            {
                w.append(TestTrees.tree(t, d, d + "-0a000001-" + HOUR + "-1", frame), HOUR_START);
            }
            assertThat(store.counters().treesStored()).isEqualTo(2);
            assertThat(store.counters().domainsOverflow()).isEqualTo(2);
        }
    }

    @Test
    void retentionRemovesOldHoursAndNothingElse() throws IOException
    {
        final long now = HOUR_START + 1_000;
        final long oldHour = HOUR - 7 * 24 - 1;
        final long keptHour = HOUR - 7 * 24;
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 4096)))
        {
            final FlatTree t = new FlatTree();
            final byte[] frame = TestTrees.frame("x", 100, new Random(10));
            int p = 0;
            for (final long h : new long[] {oldHour - 30, oldHour, keptHour, HOUR})
            {
                final LogviewWriter w = store.writer(p++);
                w.append(TestTrees.tree(t, "d", "d-0a000001-" + h + "-1", frame), h * 3_600_000L);
                w.closeHour(h * 3_600_000L);
            }
            final Path root = dir.resolve("logview");
            Files.createDirectories(root.resolve("notes"));
            Files.writeString(root.resolve("README.txt"), "mine");
            Files.writeString(root.resolve("19990101"), "a file named like a day");
            assertThat(store.find("d-0a000001-" + oldHour + "-1").status()).isEqualTo(Lookup.Status.FOUND);

            assertThat(store.cleanup(now)).isEqualTo(2);

            assertThat(store.find("d-0a000001-" + oldHour + "-1").status()).isEqualTo(Lookup.Status.NOT_FOUND);
            assertThat(store.find("d-0a000001-" + (oldHour - 30) + "-1").status()).isEqualTo(Lookup.Status.NOT_FOUND);
            assertThat(store.find("d-0a000001-" + keptHour + "-1").status()).isEqualTo(Lookup.Status.FOUND);
            assertThat(store.find("d-0a000001-" + HOUR + "-1").status()).isEqualTo(Lookup.Status.FOUND);
            assertThat(root.resolve("notes")).isDirectory();
            assertThat(root.resolve("README.txt")).hasContent("mine");
            assertThat(root.resolve("19990101")).isRegularFile();
            assertThat(LogviewFiles.hourDir(root, oldHour)).doesNotExist();
            assertThat(LogviewFiles.hourDir(root, keptHour)).isDirectory();
            assertThat(store.counters().hoursRemoved()).isEqualTo(2);
            try (Stream<Path> days = Files.list(root))
            {
                assertThat(days.count()).isEqualTo(5); // kept day(s), notes, README, 19990101
            }
        }
    }

    @Test
    void settingsNameTheBadKey()
    {
        assertThatThrownBy(() -> new LogviewSettings(dir, 0, 4096, 1000, 1, 1, 1, 1))
            .hasMessageContaining("logview.retentionDays");
        assertThatThrownBy(() -> new LogviewSettings(dir, 1, 100, 1000, 1, 1, 1, 1))
            .hasMessageContaining("logview.blockBytes");
        assertThatThrownBy(() -> new LogviewSettings(null, 1, 4096, 1000, 1, 1, 1, 1))
            .hasMessageContaining("storage.dataDir");
    }
}
