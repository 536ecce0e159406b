package io.cheetah.server.journal;

import io.cheetah.message.FlatTree;
import io.cheetah.core.disk.Disk;
import io.cheetah.server.fixtures.FaultyDisk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class TreeJournalTest
{
    @TempDir
    Path dir;

    private JournalSettings settings(final int bufferBytes)
    {
        return new JournalSettings(dir.resolve("journal"), 200, 1 << 20, bufferBytes);
    }

    private static FlatTree tree(final String text, final boolean wide)
    {
        final FlatTree t = new FlatTree();
        final byte[] b = text.getBytes(StandardCharsets.UTF_8);
        t.setFrame(b, 0, b.length);
        if (wide)
        {
            t.markWideSource();
        }
        return t;
    }

    private record Seen(int journal, long sequence, long received, int pt1, boolean wide, String frame)
    {
    }

    private static List<Seen> read(final TreeJournal j, final int id, final long after) throws IOException
    {
        final List<Seen> out = new ArrayList<>();
        j.read(id, after, (journal, sequence, received, pt1, wide, frame, offset, length) ->
            out.add(new Seen(journal, sequence, received, pt1, wide, new String(frame, offset, length,
                StandardCharsets.UTF_8))));
        return out;
    }

    @Test
    void treesComeBackInOrderWithWhatReplayNeedsAndNumberingGoesOnAfterAReopen() throws Exception
    {
        try (TreeJournal j = TreeJournal.open(settings(64 * 1024)))
        {
            final JournalWriter a = j.writer();
            final JournalWriter b = j.writer();
            assertThat(a.append(tree("a1", false), 1000, 0)).isEqualTo(1);
            assertThat(a.append(tree("a2", true), 1001, -8)).isEqualTo(2);
            assertThat(b.append(tree("b1", false), 1002, 3)).isEqualTo(1);
            a.flush();
            a.sync();
            assertThat(read(j, 0, 0)).containsExactly(new Seen(0, 1, 1000, 0, false, "a1"),
                new Seen(0, 2, 1001, -8, true, "a2"));
            assertThat(read(j, 1, 0)).as("b's batch is still in its buffer").isEmpty();
            a.dispatched(2);
            assertThat(j.dispatched()).containsExactly(2, 0);
        } // close writes every buffer
        try (TreeJournal j = TreeJournal.open(settings(64 * 1024)))
        {
            assertThat(j.journals()).isEqualTo(2);
            assertThat(j.endAtOpen(0)).isEqualTo(2);
            assertThat(j.dispatched()).containsExactly(2, 1);
            assertThat(read(j, 1, 0)).containsExactly(new Seen(1, 1, 1002, 3, false, "b1"));
            assertThat(read(j, 0, 1)).extracting(Seen::frame).containsExactly("a2");
            final JournalWriter a = j.writer();
            assertThat(a.append(tree("a3", false), 1003, 0)).as("numbers go on").isEqualTo(3);
            a.flush();
            a.sync();
            assertThat(read(j, 0, 0)).extracting(Seen::frame).containsExactly("a1", "a2", "a3");
        }
    }

    @Test
    void aTornTailIsCutOffCountedAndTheJournalContinuesAfterTheLastIntactBatch() throws Exception
    {
        final Path segment;
        try (TreeJournal j = TreeJournal.open(settings(64 * 1024)))
        {
            final JournalWriter w = j.writer();
            w.append(tree("one", false), 1, 0);
            w.flush();
            w.sync();
            w.append(tree("two", false), 2, 0);
            w.flush();
            w.sync();
            try (Stream<Path> files = Files.list(dir.resolve("journal").resolve("0")))
            {
                segment = files.findFirst().orElseThrow();
            }
        }
        // a crash mid-write: the second batch is cut short
        final long size = Files.size(segment);
        try (var ch = java.nio.channels.FileChannel.open(segment, StandardOpenOption.WRITE))
        {
            ch.truncate(size - 2);
        }
        try (TreeJournal j = TreeJournal.open(settings(64 * 1024)))
        {
            assertThat(j.counters().damagedBatches.sum()).isEqualTo(1);
            assertThat(j.endAtOpen(0)).isEqualTo(1);
            assertThat(read(j, 0, 0)).extracting(Seen::frame).containsExactly("one");
            final JournalWriter w = j.writer();
            assertThat(w.append(tree("three", false), 3, 0)).isEqualTo(2);
            w.flush();
            w.sync();
            assertThat(read(j, 0, 0)).extracting(Seen::frame).containsExactly("one", "three");
        }
    }

    @Test
    void fullSegmentsRollOverAndOnlyWhollyCoveredOnesAreDeleted() throws Exception
    {
        final String big = "x".repeat(100_000);
        try (TreeJournal j = TreeJournal.open(settings(256 * 1024)))
        {
            final JournalWriter w = j.writer();
            for (int i = 0; i < 30; i++)
            {
                w.append(tree(big, false), i, 0); // 3 MB in all: segments of 1 MB
            }
            w.flush();
            w.sync();
            final Path journal = dir.resolve("journal").resolve("0");
            final long segments = count(journal);
            assertThat(segments).isGreaterThanOrEqualTo(3);
            j.trim(new long[] {5});
            assertThat(count(journal)).as("the first segment holds more than 5 trees").isEqualTo(segments);
            j.trim(new long[] {30});
            assertThat(count(journal)).as("the last segment always stays").isEqualTo(1);
            assertThat(j.counters().segmentsDeleted.sum()).isEqualTo(segments - 1);
            assertThat(read(j, 0, 0)).extracting(Seen::sequence).last().isEqualTo(30L);
        }
        try (TreeJournal j = TreeJournal.open(settings(256 * 1024)))
        {
            assertThat(j.endAtOpen(0)).as("the kept segment remembers where the journal ends").isEqualTo(30);
        }
    }

    @Test
    void aFrameLargerThanTheBufferIsABatchOfItsOwn() throws Exception
    {
        final String huge = "y".repeat(200_000);
        try (TreeJournal j = TreeJournal.open(settings(64 * 1024)))
        {
            final JournalWriter w = j.writer();
            w.append(tree("small", false), 1, 0);
            w.append(tree(huge, true), 2, 1);
            w.append(tree("after", false), 3, 0);
            w.flush();
            w.sync();
            assertThat(read(j, 0, 0)).extracting(Seen::frame).containsExactly("small", huge, "after");
            assertThat(read(j, 0, 0).get(1).wide()).isTrue();
        }
    }

    @Test
    void aFailedWriteIsCountedAndLaterBatchesAreWrittenWhenTheDiskIsBack() throws Exception
    {
        final Path obstacle = dir.resolve("journal").resolve("0");
        try (TreeJournal j = TreeJournal.open(settings(64 * 1024)))
        {
            Files.write(obstacle, new byte[] {1}); // the journal's directory cannot be created: every write fails
            final JournalWriter w = j.writer();
            assertThat(w.append(tree("lost", false), 1, 0)).isEqualTo(1);
            w.flush();
            w.sync();
            assertThat(j.counters().writeErrors.sum()).isEqualTo(1);
            assertThat(j.counters().unjournaled.sum()).isEqualTo(1);
            Files.delete(obstacle);
            assertThat(w.append(tree("kept", false), 2, 0)).isEqualTo(2);
            w.flush();
            w.sync();
            assertThat(read(j, 0, 0)).extracting(Seen::sequence).containsExactly(2L);
            assertThat(j.counters().entries.sum()).isEqualTo(1);
        }
    }

    @Test
    void theIngestThreadHandsBatchesOverAndWaitsOnlyWhenEveryBufferAwaitsTheDisk() throws Exception
    {
        final FaultyDisk disk = new FaultyDisk();
        try (TreeJournal j = TreeJournal.open(settings(64 * 1024), disk))
        {
            final JournalWriter w = j.writer();
            disk.stall(true);
            final List<String> frames = new ArrayList<>();
            for (int i = 0; i < JournalWriter.STAGES - 1; i++)
            {
                frames.add("tree-" + i);
                w.append(tree(frames.get(i), false), i + 1, 0);
                w.flush(); // returns although the disk does not answer: the writer thread waits, not the caller
            }
            frames.add("last");
            w.append(tree("last", false), JournalWriter.STAGES, 0);
            assertThat(j.counters().stalls.sum()).isZero();
            final Thread ingest = new Thread(w::flush); // the last free buffer too: now every one awaits the disk
            ingest.start();
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (j.counters().stalls.sum() == 0 && System.nanoTime() < deadline)
            {
                Thread.sleep(1);
            }
            assertThat(j.counters().stalls.sum()).as("the wait is counted").isEqualTo(1);
            assertThat(ingest.isAlive()).as("the next batch has no buffer to go to").isTrue();
            assertThat(j.counters().entries.sum()).as("nothing reached the disk yet").isZero();
            disk.stall(false);
            ingest.join(10_000);
            assertThat(ingest.isAlive()).isFalse();
            frames.add("after");
            w.append(tree("after", false), JournalWriter.STAGES + 1, 0);
            w.flush();
            w.sync();
            assertThat(read(j, 0, 0)).extracting(Seen::frame).containsExactlyElementsOf(frames);
            assertThat(j.counters().entries.sum()).isEqualTo(JournalWriter.STAGES + 1);
        }
    }

    @Test
    void numbersNamedByACommittedCutAreNotUsedAgain() throws Exception
    {
        try (TreeJournal j = TreeJournal.open(settings(64 * 1024)))
        {
            // a cut names sequence 7 of journal 0 though its batches never reached the disk
            j.continueAfter(new JournalCut(java.util.Map.of("transaction", new long[] {7})).highest());
            assertThat(j.writer().append(tree("next", false), 1, 0)).isEqualTo(8);
            assertThat(j.dispatched()).containsExactly(7);
        }
    }

    @Test
    void batchesOfEveryLengthComeBackAcrossBlockBoundariesAndSegmentsWithOrWithoutDirectWrites() throws Exception
    {
        // the writer rewrites the segment's last, partial block with every batch: lengths that end anywhere in a
        // block, flushed after one tree or many, must all come back in order, whichever way the file is written
        final Disk refusesDirect = (file, options) ->
        {
            if (java.util.Arrays.asList(options).contains(com.sun.nio.file.ExtendedOpenOption.DIRECT))
            {
                throw new UnsupportedOperationException("no O_DIRECT here");
            }
            return java.nio.channels.FileChannel.open(file, options);
        };
        for (final Disk disk : List.of(Disk.SYSTEM, refusesDirect))
        {
            final Path home = Files.createTempDirectory(dir, "j");
            final JournalSettings s = new JournalSettings(home, 200, 1 << 20, 64 * 1024);
            final java.util.Random random = new java.util.Random(disk == Disk.SYSTEM ? 1 : 2);
            final List<String> sent = new ArrayList<>();
            try (TreeJournal j = TreeJournal.open(s, disk))
            {
                final JournalWriter w = j.writer();
                for (int i = 0; i < 1_500; i++)
                {
                    final String frame = i + ":" + "z".repeat(random.nextInt(random.nextInt(10) == 0 ? 9_000 : 700));
                    sent.add(frame);
                    w.append(tree(frame, false), i, 0);
                    if (random.nextInt(4) == 0)
                    {
                        w.flush();
                    }
                }
                if (disk != Disk.SYSTEM)
                {
                    assertThat(w.direct()).as("refused O_DIRECT: written through the page cache").isFalse();
                }
                else if (takesDirectWrites(home))
                {
                    // every write stayed aligned: a misaligned one would have fallen back to the page cache
                    assertThat(w.direct()).as("O_DIRECT kept on a file system that takes it").isTrue();
                }
            }
            final Path journal = home.resolve("0");
            assertThat(count(journal)).as("1 MB segments").isGreaterThanOrEqualTo(2);
            try (Stream<Path> files = Files.list(journal))
            {
                for (final Path f : files.toList())
                {
                    assertThat(Files.size(f) % JournalWriter.BLOCK).as("closed segments are cut to their length")
                        .isNotZero();
                }
            }
            try (TreeJournal j = TreeJournal.open(s, disk))
            {
                assertThat(j.endAtOpen(0)).isEqualTo(sent.size());
                assertThat(read(j, 0, 0)).extracting(Seen::frame).containsExactlyElementsOf(sent);
                assertThat(j.counters().damagedBatches.sum()).isZero();
            }
        }
    }

    @Test
    void aSegmentLeftOpenByACrashEndsInPaddingThatIsNotDamage() throws Exception
    {
        final TreeJournal crashed = TreeJournal.open(settings(64 * 1024));
        final JournalWriter w = crashed.writer();
        w.append(tree("one", false), 1, 0);
        w.flush();
        w.sync();
        w.append(tree("two", true), 2, 0);
        w.flush();
        w.sync(); // the writer is never closed: a kill -9 leaves the segment as it is now
        final Path segment;
        try (Stream<Path> files = Files.list(dir.resolve("journal").resolve("0")))
        {
            segment = files.findFirst().orElseThrow();
        }
        assertThat(Files.size(segment)).as("whole blocks, zeros after the last batch").isEqualTo(JournalWriter.BLOCK);
        try (TreeJournal j = TreeJournal.open(settings(64 * 1024)))
        {
            assertThat(j.counters().damagedBatches.sum()).isZero();
            assertThat(j.endAtOpen(0)).isEqualTo(2);
            assertThat(read(j, 0, 0)).extracting(Seen::frame).containsExactly("one", "two");
            assertThat(Files.size(segment)).as("the padding cut off").isLessThan(JournalWriter.BLOCK);
            final JournalWriter next = j.writer();
            assertThat(next.append(tree("three", false), 3, 0)).isEqualTo(3);
        }
    }

    @Test
    void nonZeroBytesAfterTheLastBatchAreDamageNotPadding() throws Exception
    {
        try (TreeJournal j = TreeJournal.open(settings(64 * 1024)))
        {
            final JournalWriter w = j.writer();
            w.append(tree("one", false), 1, 0);
        }
        final Path segment;
        try (Stream<Path> files = Files.list(dir.resolve("journal").resolve("0")))
        {
            segment = files.findFirst().orElseThrow();
        }
        final byte[] junk = new byte[JournalWriter.BLOCK - (int)Files.size(segment)];
        junk[junk.length - 1] = 7;
        Files.write(segment, junk, StandardOpenOption.APPEND);
        try (TreeJournal j = TreeJournal.open(settings(64 * 1024)))
        {
            assertThat(j.counters().damagedBatches.sum()).isEqualTo(1);
            assertThat(read(j, 0, 0)).extracting(Seen::frame).containsExactly("one");
        }
    }

    /** Whether this directory's file system takes an aligned O_DIRECT write (tmpfs before Linux 6.6 does not). */
    private static boolean takesDirectWrites(final Path d)
    {
        final Path probe = d.resolve("direct.probe");
        try (var ch = java.nio.channels.FileChannel.open(probe, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            com.sun.nio.file.ExtendedOpenOption.DIRECT))
        {
            final var block = java.nio.ByteBuffer.allocateDirect(2 * JournalWriter.BLOCK)
                .alignedSlice(JournalWriter.BLOCK).limit(JournalWriter.BLOCK);
            ch.write(block, 0);
            return true;
        }
        catch (final IOException | UnsupportedOperationException e)
        {
            return false;
        }
        finally
        {
            try
            {
                Files.deleteIfExists(probe);
            }
            catch (final IOException ignored)
            {
                // a temp dir
            }
        }
    }

    private static long count(final Path d) throws IOException
    {
        try (Stream<Path> files = Files.list(d))
        {
            return files.count();
        }
    }
}
