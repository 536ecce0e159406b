package io.cheetah.logview;

import io.cheetah.logview.BlockFormat.SegmentKey;

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
 * written before a restart. Opening it finds the intact part of the block file (a torn tail is ignored) and loads
 * the segment table: a snapshot, so it is only right while no writer appends to the files. Afterwards look-ups from
 * any number of threads use positional reads. Cached, closed, and its damage counted by {@link LogviewStore}, which
 * knows whether a writer had the files open meanwhile (then a torn tail or a slot past the snapshot is no damage).
 */
final class SealedFile implements Closeable
{
    private final FileChannel dat;
    private final FileChannel idx;
    private final long intactLength;
    private final Map<SegmentKey, Integer> segments;
    private final boolean damagedOnOpen;

    private SealedFile(final FileChannel dat, final FileChannel idx, final long intactLength,
        final Map<SegmentKey, Integer> segments, final boolean damagedOnOpen)
    {
        this.dat = dat;
        this.idx = idx;
        this.intactLength = intactLength;
        this.segments = segments;
        this.damagedOnOpen = damagedOnOpen;
    }

    /**
     * @param dir  the hour directory.
     * @param stem file name without extension.
     * @return the open view, or null when the files do not exist.
     */
    static SealedFile open(final Path dir, final String stem) throws IOException
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
            boolean damaged = intact < size;
            final Map<SegmentKey, Integer> segments = new HashMap<>();
            try (FileChannel seg = FileChannel.open(dir.resolve(stem + LogviewFiles.SEG), StandardOpenOption.READ))
            {
                final long segSize = seg.size();
                if ((long)BlockFormat.loadSegments(seg, segSize, segments) * BlockFormat.SEG_RECORD < segSize)
                {
                    damaged = true;
                }
            }
            idx = FileChannel.open(dir.resolve(stem + LogviewFiles.IDX), StandardOpenOption.READ);
            return new SealedFile(dat, idx, intact, segments, damaged);
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
     * @return whether opening found a torn or damaged tail (in the block file or the segment table).
     */
    boolean damagedOnOpen()
    {
        return damagedOnOpen;
    }

    /**
     * @param k parsed id.
     * @return the key's index slot, or 0 when the index has none.
     */
    long slot(final MessageKey k) throws IOException
    {
        return BlockFormat.readSlot(idx, segments, k);
    }

    /**
     * @param slot a non-zero slot from {@link #slot}.
     * @param k    parsed id.
     * @return the frame, or null when the slot leads nowhere valid.
     */
    byte[] frame(final long slot, final MessageKey k) throws IOException
    {
        return BlockFormat.readSlotFrame(dat, intactLength, slot, k);
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
