package io.cheetah.logview;

import io.cheetah.logview.BlockFormat.SegmentKey;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A read-only view of one (hour, domain, partition) file set that no writer holds open: a closed hour, an hour
 * written before a restart, or an archived hour. Opening it finds the intact part of the block file (a torn tail is
 * ignored; an archived file, verified whole against its manifest, is taken as it is without walking its blocks) and
 * loads the segment table: a snapshot, so it is only right while no writer appends to the files. Afterwards
 * look-ups from any number of threads use positional reads ({@link PositionalFile}). Cached, closed, and its damage
 * counted by {@link LogviewStore}, which knows whether a writer had the files open meanwhile (then a torn tail or a
 * slot past the snapshot is no damage).
 */
final class SealedFile implements Closeable
{
    private final PositionalFile dat;
    private final PositionalFile idx;
    private final long intactLength;
    private final Map<SegmentKey, Integer> segments;
    private final boolean damagedOnOpen;

    private SealedFile(final PositionalFile dat, final PositionalFile idx, final long intactLength,
        final Map<SegmentKey, Integer> segments, final boolean damagedOnOpen)
    {
        this.dat = dat;
        this.idx = idx;
        this.intactLength = intactLength;
        this.segments = segments;
        this.damagedOnOpen = damagedOnOpen;
    }

    /**
     * Opens one of an hour's files by name.
     */
    @FunctionalInterface
    interface Opener
    {
        /**
         * @param name file name in the hour directory.
         * @return the file, or null when it does not exist.
         * @throws IOException when it cannot be opened.
         */
        PositionalFile open(String name) throws IOException;
    }

    /**
     * @param dir the hour directory.
     * @return an opener of its local files.
     */
    static Opener local(final Path dir)
    {
        return name ->
        {
            try
            {
                return PositionalFile.open(dir.resolve(name));
            }
            catch (final NoSuchFileException e)
            {
                return null;
            }
        };
    }

    /**
     * @param dir  the hour directory.
     * @param stem file name without extension.
     * @return the open view, or null when the files do not exist.
     */
    static SealedFile open(final Path dir, final String stem) throws IOException
    {
        return open(local(dir), stem, false);
    }

    /**
     * @param files  opens the hour's files.
     * @param stem   file name without extension.
     * @param whole  whether the files are known whole (archived and verified): then the block chain is not walked
     *               (one read per block, slow over a network), the file's length is taken as intact.
     * @return the open view, or null when the block file does not exist.
     */
    static SealedFile open(final Opener files, final String stem, final boolean whole) throws IOException
    {
        final PositionalFile dat = files.open(stem + LogviewFiles.DAT);
        if (dat == null)
        {
            return null;
        }
        PositionalFile idx = null;
        try
        {
            final long size = dat.size();
            final long intact = whole ? size : BlockFormat.intactLength(dat, size);
            boolean damaged = intact < size;
            final Map<SegmentKey, Integer> segments = new HashMap<>();
            try (PositionalFile seg = files.open(stem + LogviewFiles.SEG))
            {
                if (seg == null)
                {
                    throw new NoSuchFileException(stem + LogviewFiles.SEG);
                }
                final long segSize = seg.size();
                if ((long)BlockFormat.loadSegments(seg, segSize, segments) * BlockFormat.SEG_RECORD < segSize)
                {
                    damaged = true;
                }
            }
            idx = files.open(stem + LogviewFiles.IDX);
            if (idx == null)
            {
                throw new NoSuchFileException(stem + LogviewFiles.IDX);
            }
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
