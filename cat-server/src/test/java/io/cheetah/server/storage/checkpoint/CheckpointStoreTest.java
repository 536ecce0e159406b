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
        // A crash between write and rename leaves a half-written temp next to the last good file.
        final Path good1 = dir.resolve(Long.toString(HOUR)).resolve("transaction").resolve("shop.rpt");
        final byte[] bytes = Files.readAllBytes(good1);
        Files.write(good1.resolveSibling("shop.rpt.tmp"), java.util.Arrays.copyOf(bytes, bytes.length / 2));
        Files.write(good1.resolveSibling("web.rpt.tmp"), new byte[]{1, 2, 3});

        assertThat(store.load(HOUR)).containsExactly(good);
        final CheckpointStore reopened = new CheckpointStore(dir, formats);
        assertThat(reopened.load(HOUR)).containsExactly(good);
        assertThat(good1.resolveSibling("shop.rpt.tmp")).doesNotExist();
        assertThat(good1.resolveSibling("web.rpt.tmp")).doesNotExist();
    }

    @Test
    void aDamagedFileIsSkippedAndCounted() throws Exception
    {
        final CheckpointStore store = new CheckpointStore(dir, formats);
        store.write("transaction", HOUR, List.of(CountingReport.of("transaction", "a", HOUR, 1),
            CountingReport.of("transaction", "b", HOUR, 2)));
        store.commit(null);
        final Path b = dir.resolve(Long.toString(HOUR)).resolve("transaction").resolve("b.rpt");
        Files.write(b, new byte[]{'C', 'H', 'R', 'E', 1, 0});
        assertThat(store.load(HOUR)).containsExactly(CountingReport.of("transaction", "a", HOUR, 1));
        assertThat(store.unreadable()).isEqualTo(1);
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
}
