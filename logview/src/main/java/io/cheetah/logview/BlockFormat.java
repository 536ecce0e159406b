package io.cheetah.logview;

import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The on-disk layout of the logview files, and the reads shared by live, closed and archived files (all through
 * {@link PositionalFile}).
 * <pre>
 * .dat   "CHLV" int version | block | block | ...
 *        block = int magic "LVBK" | int compressedLength | int rawLength | int crc32c(compressed) | LZ4 bytes
 *        raw block = entry | entry | ...      entry = long clientKey | long index | int frameLength | frame
 * .seg   record | record | ...   record = long clientKey | long index / 4096 | long check; record n = segment n
 * .idx   segment n at n * 32 KB: 4,096 slots of 8 bytes, slot (index % 4096);
 *        slot = blockOffset &lt;&lt; 24 | entryOffsetInRawBlock, 0 = empty
 * </pre>
 * Every entry repeats its key, so a slot is checked against the tree it points to: a stale or damaged slot gives a
 * miss (counted as damage), never another tree. All numbers big-endian.
 */
final class BlockFormat
{
    static final long DAT_MAGIC = 0x43484C5600000001L;
    static final int DAT_HEADER = 8;
    static final int BLOCK_MAGIC = 0x4C56424B;
    static final int BLOCK_HEADER = 16;
    static final int ENTRY_HEADER = 20;
    static final int SEGMENT_SLOTS = 4096;
    static final int SEGMENT_SHIFT = 12;
    static final int SEGMENT_BYTES = SEGMENT_SLOTS * 8;
    static final int SEG_RECORD = 24;
    /** Largest raw block accepted when reading: the biggest block size plus the biggest frame, with room. */
    static final int MAX_RAW_BLOCK = 1 << 30;

    /** The bounds-checking decompressor: a block is checksummed first, but never trusted to say its own length. */
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();

    private BlockFormat()
    {
    }

    static long slot(final long blockOffset, final int entryOffset)
    {
        return (blockOffset << 24) | entryOffset;
    }

    static long segmentCheck(final long clientKey, final long segment)
    {
        long h = clientKey * 0x9E3779B97F4A7C15L ^ segment * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29;
        return h ^ 0x5EC5EC5EC5EC5EC5L;
    }

    /**
     * Finds where the intact part of a {@code .dat} file ends: walks the block headers, and checks the last block's
     * checksum (a crash tears the tail, not the middle).
     *
     * @param dat  the file.
     * @param size its size.
     * @return the length of the intact prefix (a whole number of blocks after the header; 0 when even the header is
     * bad).
     */
    static long intactLength(final PositionalFile dat, final long size) throws IOException
    {
        if (size < DAT_HEADER)
        {
            return 0;
        }
        final ByteBuffer head = ByteBuffer.allocate(BLOCK_HEADER);
        readFully(dat, head.limit(DAT_HEADER), 0);
        if (head.getLong(0) != DAT_MAGIC)
        {
            return 0;
        }
        long pos = DAT_HEADER;
        long last = -1;
        while (pos + BLOCK_HEADER <= size)
        {
            head.clear();
            readFully(dat, head, pos);
            final int compressed = head.getInt(4);
            final int raw = head.getInt(8);
            if (head.getInt(0) != BLOCK_MAGIC || compressed <= 0 || raw <= 0 || raw > MAX_RAW_BLOCK ||
                pos + BLOCK_HEADER + compressed > size)
            {
                break;
            }
            last = pos;
            pos += BLOCK_HEADER + compressed;
        }
        if (last >= 0 && readBlock(dat, last, pos) == null)
        {
            return last;
        }
        return pos;
    }

    /**
     * Reads, checks and decompresses one block.
     *
     * @param dat         the file.
     * @param blockOffset where the block starts.
     * @param limit       the end of the intact data; nothing past it is read.
     * @return the raw block, or null when the block is missing or damaged.
     */
    static byte[] readBlock(final PositionalFile dat, final long blockOffset, final long limit) throws IOException
    {
        if (blockOffset < DAT_HEADER || blockOffset + BLOCK_HEADER > limit)
        {
            return null;
        }
        final ByteBuffer head = ByteBuffer.allocate(BLOCK_HEADER);
        readFully(dat, head, blockOffset);
        final int compressed = head.getInt(4);
        final int raw = head.getInt(8);
        if (head.getInt(0) != BLOCK_MAGIC || compressed <= 0 || raw <= 0 || raw > MAX_RAW_BLOCK ||
            blockOffset + BLOCK_HEADER + compressed > limit)
        {
            return null;
        }
        final byte[] data = new byte[compressed];
        readFully(dat, ByteBuffer.wrap(data), blockOffset + BLOCK_HEADER);
        final CRC32C crc = new CRC32C();
        crc.update(data, 0, compressed);
        if ((int)crc.getValue() != head.getInt(12))
        {
            return null;
        }
        final byte[] out = new byte[raw];
        try
        {
            if (DECOMPRESSOR.decompress(data, 0, compressed, out, 0, raw) != raw)
            {
                return null;
            }
        }
        catch (final LZ4Exception e)
        {
            return null;
        }
        return out;
    }

    /**
     * Finds the frame of the last entry with this key in a raw block region, scanning entries from {@code from}.
     *
     * @param block  raw entries.
     * @param from   offset of the first entry to look at.
     * @param length end of the entries.
     * @param key    what is looked for.
     * @param onlyAt when true, only the entry at {@code from} is checked.
     * @return a copy of the frame, or null.
     */
    static byte[] frameOf(final byte[] block, final int from, final int length, final MessageKey key,
        final boolean onlyAt)
    {
        int pos = from;
        int found = -1;
        int foundLength = 0;
        while (pos + ENTRY_HEADER <= length)
        {
            final long clientKey = getLong(block, pos);
            final long index = getLong(block, pos + 8);
            final int frameLength = getInt(block, pos + 16);
            if (frameLength < 0 || pos + ENTRY_HEADER + frameLength > length)
            {
                break;
            }
            if (clientKey == key.clientKey() && index == key.index())
            {
                found = pos + ENTRY_HEADER;
                foundLength = frameLength;
            }
            if (onlyAt)
            {
                break;
            }
            pos += ENTRY_HEADER + frameLength;
        }
        if (found < 0)
        {
            return null;
        }
        final byte[] frame = new byte[foundLength];
        System.arraycopy(block, found, frame, 0, foundLength);
        return frame;
    }

    /**
     * Looks a key up in a file's index on disk.
     *
     * @param idx      the {@code .idx} file.
     * @param segments segment table: (client, index / 4096) to segment number.
     * @param key      what is looked for.
     * @return the slot value, or 0 when there is none.
     */
    static long readSlot(final PositionalFile idx, final Map<SegmentKey, Integer> segments, final MessageKey key)
        throws IOException
    {
        final Integer segment = segments.get(new SegmentKey(key.clientKey(), key.index() >>> SEGMENT_SHIFT));
        if (segment == null)
        {
            return 0;
        }
        final long pos = (long)segment * SEGMENT_BYTES + (key.index() & (SEGMENT_SLOTS - 1)) * 8L;
        final ByteBuffer b = ByteBuffer.allocate(8);
        try
        {
            idx.readFully(b, pos);
        }
        catch (final EOFException e)
        {
            return 0; // the segment's slots were never written
        }
        return b.getLong(0);
    }

    /**
     * Reads the frame a slot points to and checks that it is the key's.
     *
     * @param dat    the {@code .dat} file.
     * @param limit  end of its intact data.
     * @param slot   non-zero slot value.
     * @param key    what is looked for.
     * @return the frame, or null when the slot leads nowhere valid: damage, unless a writer was changing the files
     * while they were read (the caller knows which, so it counts).
     */
    static byte[] readSlotFrame(final PositionalFile dat, final long limit, final long slot, final MessageKey key)
        throws IOException
    {
        final long blockOffset = slot >>> 24;
        final int entryOffset = (int)(slot & 0xFF_FFFF);
        final byte[] block = readBlock(dat, blockOffset, limit);
        return block == null ? null : frameOf(block, entryOffset, block.length, key, true);
    }

    /**
     * Loads a {@code .seg} file's intact records.
     *
     * @param seg  the file.
     * @param size its size.
     * @param out  receives (client, index / 4096) to segment number.
     * @return how many records are intact (a torn or damaged record ends the table).
     */
    static int loadSegments(final PositionalFile seg, final long size, final Map<SegmentKey, Integer> out)
        throws IOException
    {
        final int records = (int)Math.min(size / SEG_RECORD, 1 << 17);
        final ByteBuffer b = ByteBuffer.allocate(records * SEG_RECORD);
        readFully(seg, b, 0);
        for (int n = 0; n < records; n++)
        {
            final long clientKey = b.getLong(n * SEG_RECORD);
            final long segment = b.getLong(n * SEG_RECORD + 8);
            if (b.getLong(n * SEG_RECORD + 16) != segmentCheck(clientKey, segment))
            {
                return n;
            }
            out.put(new SegmentKey(clientKey, segment), n);
        }
        return records;
    }

    static void readFully(final PositionalFile f, final ByteBuffer b, final long pos) throws IOException
    {
        f.readFully(b, pos);
    }

    static void writeFully(final FileChannel ch, final ByteBuffer b, final long pos) throws IOException
    {
        final int start = b.position();
        while (b.hasRemaining())
        {
            ch.write(b, pos + b.position() - start);
        }
    }

    static long getLong(final byte[] b, final int i)
    {
        return ((long)getInt(b, i) << 32) | (getInt(b, i + 4) & 0xFFFF_FFFFL);
    }

    static int getInt(final byte[] b, final int i)
    {
        return ((b[i] & 0xFF) << 24) | ((b[i + 1] & 0xFF) << 16) | ((b[i + 2] & 0xFF) << 8) | (b[i + 3] & 0xFF);
    }

    static void putLong(final byte[] b, final int i, final long v)
    {
        putInt(b, i, (int)(v >>> 32));
        putInt(b, i + 4, (int)v);
    }

    static void putInt(final byte[] b, final int i, final int v)
    {
        b[i] = (byte)(v >>> 24);
        b[i + 1] = (byte)(v >>> 16);
        b[i + 2] = (byte)(v >>> 8);
        b[i + 3] = (byte)v;
    }

    /**
     * Key of an index segment: one client's 4,096 consecutive indexes.
     *
     * @param clientKey see {@link MessageKey#clientKey()}.
     * @param segment   index / 4096.
     */
    record SegmentKey(long clientKey, long segment)
    {
    }
}
