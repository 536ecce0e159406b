package io.cheetah.server.storage.checkpoint;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.storage.CountingReport;
import io.cheetah.server.journal.JournalCut;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CheckpointStoreTest
{
    private static final long HOUR = 3_600_000L * 480_000;
    private final Map<String, ReportFormat> formats = Map.of("transaction", new CountingReport.Format(),
        "event", new CountingReport.Format());

    @TempDir
    Path dir;

    @Test
    void writtenCheckpointsReloadAfterARestart() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        final List<Report> tx = List.of(CountingReport.of("transaction", "shop", HOUR, 1),
            CountingReport.of("transaction", "../etc/passwd", HOUR, 2), CountingReport.of("transaction", "", HOUR, 3),
            CountingReport.of("transaction", "x".repeat(250) + "/é", HOUR, 4));
        store.write("transaction", HOUR, tx);
        store.write("event", HOUR, List.of(CountingReport.of("event", "shop", HOUR, 5)));
        store.write("transaction", HOUR + 3_600_000L, List.of(CountingReport.of("transaction", "shop", HOUR, 9)));
        assertThat(store.commit(null)).isTrue();

        final CheckpointStore reopened = new CheckpointStore(dir, formats);
        assertThat(reopened.load("transaction", HOUR)).containsExactlyInAnyOrderElementsOf(tx);
        assertThat(reopened.load(HOUR)).hasSize(5);
        assertThat(reopened.hours()).containsExactly(HOUR, HOUR + 3_600_000L);
        try (Stream<Path> files = Files.walk(dir))
        {
            assertThat(files.filter(Files::isRegularFile)).allMatch(p -> p.startsWith(dir))
                .noneMatch(p -> p.toString().contains("etc/passwd"));
        }
    }

    @Test
    void aNewerCheckpointReplacesTheOlder() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "shop", HOUR, 1)));
        store.commit(null);
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "shop", HOUR, 2)));
        assertThat(store.load(HOUR)).as("a round takes effect only when committed")
            .containsExactly(CountingReport.of("transaction", "shop", HOUR, 1));
        store.commit(null);
        assertThat(store.load(HOUR)).containsExactly(CountingReport.of("transaction", "shop", HOUR, 2));
    }

    @Test
    void aTornTempFileIsIgnoredAndSwept() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        final Report good = CountingReport.of("transaction", "shop", HOUR, 1);
        store.write("transaction", HOUR, List.of(good));
        store.commit(null);
        // A crash during a rewrite leaves a half-written temp next to the last good file.
        final Path bundle = single(transactionDir());
        final byte[] bytes = Files.readAllBytes(bundle);
        final Path torn = bundle.resolveSibling(bundle.getFileName() + ".tmp");
        Files.write(torn, java.util.Arrays.copyOf(bytes, bytes.length / 2));

        assertThat(store.load(HOUR)).containsExactly(good);
        final CheckpointStore reopened = new CheckpointStore(dir, formats);
        assertThat(reopened.load(HOUR)).containsExactly(good);
        assertThat(torn).doesNotExist();
    }

    @Test
    void aRoundWritesAFilePerConsumerAndAnalyzerNotPerDomain() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        final List<Report> tx = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++)
        {
            tx.add(CountingReport.of("transaction", "domain-" + i, HOUR, i));
        }
        store.write("transaction", HOUR, tx.subList(0, 150));
        store.write("transaction", HOUR, tx.subList(150, 300));
        store.write("event", HOUR, List.of(CountingReport.of("event", "shop", HOUR, 5)));
        store.commit(null);
        assertThat(bundles()).hasSize(3);
        assertThat(new CheckpointStore(dir, formats).load("transaction", HOUR)).containsExactlyInAnyOrderElementsOf(tx);
    }

    @Test
    void aConsumerThatSkipsARoundKeepsItsOlderBundleAndSupersededBundlesGo() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        // two consumers (partitions) of one analyzer
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "a", HOUR, 1),
            CountingReport.of("transaction", "b", HOUR, 1)));
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "c", HOUR, 1)));
        store.commit(null);
        // only the first took trees since: the second writes nothing, its bundle stays current
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "a", HOUR, 2),
            CountingReport.of("transaction", "b", HOUR, 2)));
        store.commit(null);
        final List<Report> expected = List.of(CountingReport.of("transaction", "a", HOUR, 2),
            CountingReport.of("transaction", "b", HOUR, 2), CountingReport.of("transaction", "c", HOUR, 1));
        assertThat(store.load(HOUR)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(bundles()).as("the first round's bundle of a and b is superseded and deleted").hasSize(2);
        final CheckpointStore reopened = new CheckpointStore(dir, formats);
        assertThat(reopened.load(HOUR)).containsExactlyInAnyOrderElementsOf(expected);
        // the reopened store numbers its rounds after the newest on disk: its round wins over both
        reopened.write("transaction", HOUR, List.of(CountingReport.of("transaction", "c", HOUR, 3)));
        reopened.commit(null);
        assertThat(reopened.load(HOUR)).containsExactlyInAnyOrder(CountingReport.of("transaction", "a", HOUR, 2),
            CountingReport.of("transaction", "b", HOUR, 2), CountingReport.of("transaction", "c", HOUR, 3));
        assertThat(bundles()).hasSize(2);
    }

    @Test
    void aDamagedBundleIsSkippedAndCounted() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "a", HOUR, 1)));
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "b", HOUR, 2)));
        store.commit(null);
        final Path b = bundleHolding("b");
        final byte[] bytes = Files.readAllBytes(b);
        bytes[20] ^= 0x55; // inside the index: its checksum no longer matches
        Files.write(b, bytes);
        assertThat(store.load(HOUR)).containsExactly(CountingReport.of("transaction", "a", HOUR, 1));
        assertThat(store.unreadable()).isEqualTo(1);
        bytes[20] ^= 0x55;
        Files.write(b, java.util.Arrays.copyOf(bytes, bytes.length - 1));
        assertThat(store.load(HOUR)).as("truncated").containsExactly(CountingReport.of("transaction", "a", HOUR, 1));
        assertThat(store.unreadable()).isEqualTo(2);
    }

    @Test
    void aDamagedReportInABundleIsSkippedAndCountedAndTheOthersLoad() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "a", HOUR, 1),
            CountingReport.of("transaction", "b", HOUR, 2)));
        store.commit(null);
        final Path bundle = single(transactionDir());
        final byte[] bytes = Files.readAllBytes(bundle);
        bytes[bytes.length - 1] ^= 0x55; // the last byte of b's envelope
        Files.write(bundle, bytes);
        assertThat(store.load(HOUR)).containsExactly(CountingReport.of("transaction", "a", HOUR, 1));
        assertThat(store.unreadable()).isEqualTo(1);
    }

    @Test
    void closingSomeDomainsOfABundleKeepsTheOthers() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "a", HOUR, 1),
            CountingReport.of("transaction", "b", HOUR, 2)));
        store.commit(null);
        store.remove("transaction", HOUR, List.of("a"));
        assertThat(store.load(HOUR)).containsExactly(CountingReport.of("transaction", "b", HOUR, 2));
        assertThat(new CheckpointStore(dir, formats).load(HOUR))
            .containsExactly(CountingReport.of("transaction", "b", HOUR, 2));
    }

    @Test
    void aClosedHoursBundleStagedInTheRoundInFlightIsNotCommitted() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "a", HOUR, 1)));
        store.commit(null);
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "a", HOUR, 2)));
        store.remove("transaction", HOUR, List.of("a"));
        assertThat(store.commit(null)).isTrue();
        assertThat(store.load(HOUR)).isEmpty();
        assertThat(store.hours()).isEmpty();
    }

    @Test
    void oneReportFilesOfAnOlderVersionAreConvertedOnOpen() throws Exception
    {
        final CountingReport.Format format = new CountingReport.Format();
        final Report shop = CountingReport.of("transaction", "shop", HOUR, 1);
        final Report odd = CountingReport.of("transaction", "a/b", HOUR, 2);
        final Path old = Files.createDirectories(transactionDir());
        Files.write(old.resolve("shop.rpt"), io.cheetah.server.storage.ReportEnvelope.encode(format, shop));
        Files.write(old.resolve("a%2fb.rpt"), io.cheetah.server.storage.ReportEnvelope.encode(format, odd));
        final CheckpointStore store = new CheckpointStore(dir, formats);
        assertThat(store.load(HOUR)).containsExactlyInAnyOrder(shop, odd);
        try (Stream<Path> files = Files.walk(dir))
        {
            assertThat(files.map(Path::toString)).noneMatch(p -> p.endsWith(".rpt"));
        }
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "shop", HOUR, 5)));
        store.commit(null);
        assertThat(new CheckpointStore(dir, formats).load(HOUR))
            .containsExactlyInAnyOrder(CountingReport.of("transaction", "shop", HOUR, 5), odd);
    }

    @Test
    void removingTheClosedHoursDomainsLeavesNoDirectories() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "a", HOUR, 1)));
        store.commit(null);
        store.remove("transaction", HOUR, List.of("a"));
        assertThat(store.hours()).isEmpty();
        assertThat(store.load(HOUR)).isEmpty();
    }

    @Test
    void aRoundThatNeverCommittedIsDroppedOnReopenAndTheCutStays() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        final JournalCut first = new JournalCut(Map.of("transaction", new long[] {10, 20}));
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "shop", HOUR, 1)));
        assertThat(store.commit(first)).isTrue();
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "shop", HOUR, 2),
            CountingReport.of("transaction", "web", HOUR, 3)));
        // killed before the commit: the staged files must not mix with the cut of the first round
        final CheckpointStore reopened = new CheckpointStore(dir, formats);
        assertThat(reopened.load(HOUR)).containsExactly(CountingReport.of("transaction", "shop", HOUR, 1));
        assertThat(reopened.cut()).isEqualTo(first);
        try (Stream<Path> files = Files.walk(dir))
        {
            assertThat(files.map(Path::toString)).noneMatch(p -> p.endsWith(".next"));
        }
    }

    @Test
    void aRoundKilledDuringItsRenamesIsFinishedOnReopen() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "shop", HOUR, 1)));
        store.commit(new JournalCut(Map.of("transaction", new long[] {5})));
        final JournalCut second = new JournalCut(Map.of("transaction", new long[] {9}));
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "shop", HOUR, 2)));
        store.write("event", HOUR, List.of(CountingReport.of("event", "shop", HOUR, 4)));
        // as if killed right after COMMIT was written, before any staged file was renamed
        Files.write(dir.resolve("COMMIT"), second.encode());
        final CheckpointStore reopened = new CheckpointStore(dir, formats);
        assertThat(reopened.load(HOUR)).containsExactlyInAnyOrder(CountingReport.of("transaction", "shop", HOUR, 2),
            CountingReport.of("event", "shop", HOUR, 4));
        assertThat(reopened.cut()).isEqualTo(second);
        assertThat(dir.resolve("COMMIT")).doesNotExist();
        assertThat(reopened.hours()).containsExactly(HOUR);
    }

    @Test
    void aRoundWithAFailedWriteDoesNotCommitAndKeepsTheOldState() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        final JournalCut first = new JournalCut(Map.of("transaction", new long[] {3}, "event", new long[] {3}));
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "shop", HOUR, 1)));
        assertThat(store.commit(first)).isTrue();
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "shop", HOUR, 2)));
        // the event directory cannot be created (a file is in its way): the round's second write fails
        Files.write(dir.resolve(Long.toString(HOUR)).resolve("event"), new byte[] {1});
        assertThatThrownBy(() -> store.write("event", HOUR, List.of(CountingReport.of("event", "shop", HOUR, 4))))
            .isInstanceOf(IOException.class);
        assertThat(store.commit(new JournalCut(Map.of("transaction", new long[] {8})))).isFalse();
        assertThat(store.load(HOUR)).containsExactly(CountingReport.of("transaction", "shop", HOUR, 1));
        assertThat(store.cut()).isEqualTo(first);
        Files.delete(dir.resolve(Long.toString(HOUR)).resolve("event"));
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "shop", HOUR, 3)));
        assertThat(store.commit(null)).as("the next round commits again").isTrue();
        assertThat(store.load(HOUR)).containsExactly(CountingReport.of("transaction", "shop", HOUR, 3));
    }

    private Path transactionDir()
    {
        return dir.resolve(Long.toString(HOUR)).resolve("transaction");
    }

    private List<Path> bundles() throws IOException
    {
        try (Stream<Path> files = Files.walk(dir))
        {
            return files.filter(p -> p.toString().endsWith(".ckb")).toList();
        }
    }

    private static Path single(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.list(dir))
        {
            final List<Path> all = files.toList();
            assertThat(all).hasSize(1);
            return all.get(0);
        }
    }

    private Path bundleHolding(final String domain) throws IOException
    {
        for (final Path p : bundles())
        {
            if (CheckpointBundle.domains(p).contains(domain))
            {
                return p;
            }
        }
        throw new AssertionError("no bundle holds " + domain);
    }
}
