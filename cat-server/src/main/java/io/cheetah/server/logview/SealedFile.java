package io.cheetah.server.logview;

import io.cheetah.server.logview.BlockFormat.SegmentKey;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * A read-only view of one (hour, domain, partition) file set that no writer holds open: a closed hour, or an hour
 * written before a restart. Opening it finds the intact part of the block file (a torn tail is counted as damage
 * and ignored) and loads the segment table; afterwards look-ups from any number of threads use positional reads.
 * Cached and closed by {@link LogviewStore}.
 */
final class SealedFile implements Closeable
{
    private final FileChannel dat;
    private final FileChannel idx;
    private final long intactLength;
    private final Map<SegmentKey, Integer> segments;

    private SealedFile(final FileChannel dat, final FileChannel idx, final long intactLength,
        final Map<SegmentKey, Integer> segments)
    {
        this.dat = dat;
        this.idx = idx;
        this.intactLength = intactLength;
        this.segments = segments;
    }

    /**
     * @param dir      the hour directory.
     * @param stem     file name without extension.
     * @param counters where damage found on opening is counted.
     * @return the open view, or null when the files do not exist.
     */
    static SealedFile open(final Path dir, final String stem, final LogviewCounters counters) throws IOException
    {
        final FileChannel dat;
        try
        {
            dat = FileChannel.open(dir.resolve(stem + LogviewFiles.DAT), StandardOpenOption.READ);
        }
        catch (final NoSuchFileException e)
        {
            return null;
        }
        FileChannel idx = null;
        try
        {
            final long size = dat.size();
            final long intact = BlockFormat.intactLength(dat, size);
            if (intact < size)
            {
                counters.damage.increment();
            }
            final Map<SegmentKey, Integer> segments = new HashMap<>();
            try (FileChannel seg = FileChannel.open(dir.resolve(stem + LogviewFiles.SEG), StandardOpenOption.READ))
            {
                final long segSize = seg.size();
                if ((long)BlockFormat.loadSegments(seg, segSize, segments) * BlockFormat.SEG_RECORD < segSize)
                {
                    counters.damage.increment();
                }
            }
            idx = FileChannel.open(dir.resolve(stem + LogviewFiles.IDX), StandardOpenOption.READ);
            return new SealedFile(dat, idx, intact, segments);
        }
        catch (final IOException | RuntimeException e)
        {
            dat.close();
            if (idx != null)
            {
                idx.close();
            }
            throw e;
        }
    }

    /**
     * @param k        parsed id.
     * @param counters where a slot leading nowhere is counted.
     * @return the frame, or null.
     */
    byte[] find(final MessageKey k, final LogviewCounters counters) throws IOException
    {
        final long slot = BlockFormat.readSlot(idx, segments, k);
        return slot == 0 ? null : BlockFormat.readSlotFrame(dat, intactLength, slot, k, counters);
    }

    @Override
    public void close() throws IOException
    {
        try
        {
            dat.close();
        }
        finally
        {
            idx.close();
        }
    }
}
