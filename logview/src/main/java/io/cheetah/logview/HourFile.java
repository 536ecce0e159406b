package io.cheetah.logview;

import io.cheetah.logview.BlockFormat.SegmentKey;
import io.cheetah.core.disk.Disk;
import io.cheetah.logview.search.BlockSummary;
import io.cheetah.logview.search.SearchIndex;
import net.jpountz.lz4.LZ4Compressor;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * The open files of one (hour, id domain, partition): written by that partition's single writer thread, read
 * concurrently by look-ups without ever making the writer wait.
 * <p>
 * Writer: {@link #append} copies the entry into the unsealed block (a byte array) and publishes its new length;
 * {@link #seal} makes the sequence count odd (the block is going to disk, the index is being written), compresses
 * the block, writes it, publishes the new intact length, writes its index slots, then empties the block and makes
 * the count even again before any of its bytes is overwritten (a seqlock).
 * <p>
 * Readers: {@link #find} copies the published part of the unsealed block and keeps the copy unless the block was
 * emptied meanwhile (the count passed an even value). A copy overtaken that way means a seal completed after the
 * look-up began, so everything appended before it is on disk and indexed: the reader goes to the index instead of
 * retrying. The on-disk index is read through positional reads, which are safe alongside the writer's positional
 * writes; a slot read while a seal writes the index may be torn, so a slot leading nowhere counts as damage only
 * if no seal was in flight. So a tree is findable as soon as it is appended, and a reader never starves.
 */
final class HourFile
{
    private static final int CACHE = 64;
    /** How long a reader keeps retrying when every index read races a seal writing the index. */
    private static final long READ_PATIENCE_NANOS = 2_000_000_000L;
    private static final int INITIAL_BLOCK = 16 * 1024;
    private static final byte[] EMPTY = new byte[0];

    private final LogviewStore.FileKey key;
    private final LogviewSettings settings;
    private final LogviewCounters counters;
    private final FileChannel dat;
    private final FileChannel idx;
    private final FileChannel seg;
    /** Read views of {@link #dat} and {@link #idx} (never closed themselves: the channels are). */
    private final PositionalFile datView;
    private final PositionalFile idxView;
    private final long idxSizeAtOpen;
    private final Consumer<IOException> onWriteError;

    // ---- published to readers
    private final ConcurrentHashMap<SegmentKey, Integer> segments = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicInteger published = new AtomicInteger();
    private volatile byte[] block;
    private volatile long intactLength;
    private volatile boolean closed;

    // ---- writer only
    private int blockLength;
    private long blockStartMillis;
    private long datLength;
    private int segmentCount;
    private long[] pendingClient = new long[256];
    private long[] pendingIndex = new long[256];
    private int[] pendingOffset = new int[256];
    private int pending;
    private final SealScratch scratch;
    private final LogviewCounters.WriterLanes lanes;
    /** The search summaries of the unsealed block: one per header domain's index (usually the file's own). */
    private SearchIndex[] indexes = new SearchIndex[1];
    private BlockSummary[] summaries = new BlockSummary[1];
    private int links;
    /** Whether trees of another header domain than the file's id domain were ever appended (RPC ids). */
    private volatile boolean mixedDomains;
    private final long[] cacheClient = new long[CACHE];
    private final long[] cacheSegment = new long[CACHE];
    private final int[] cacheNumber = new int[CACHE];

    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(BlockFormat.SEGMENT_BYTES).asReadOnlyBuffer();

    private HourFile(final LogviewStore.FileKey key, final LogviewSettings settings, final LogviewCounters counters,
        final SealScratch scratch, final LogviewCounters.WriterLanes lanes, final FileChannel dat,
        final FileChannel idx, final FileChannel seg,
        final long idxSizeAtOpen, final Consumer<IOException> onWriteError)
    {
        this.onWriteError = onWriteError;
        this.scratch = scratch;
        this.lanes = lanes;
        this.key = key;
        this.settings = settings;
        this.counters = counters;
        this.dat = dat;
        this.idx = idx;
        this.seg = seg;
        this.datView = PositionalFile.of(dat);
        this.idxView = PositionalFile.of(idx);
        this.idxSizeAtOpen = idxSizeAtOpen;
        // grown by doubling up to a block: quiet domains keep small buffers
        this.block = new byte[Math.min(settings.blockBytes(), INITIAL_BLOCK)];
        Arrays.fill(cacheClient, -1);
    }

    /**
     * Opens (creating or recovering) the files for writing. A torn or damaged tail left by a crash is counted as
     * damage and cut off, so appending continues after the last intact block.
     *
     * @param dir      the hour directory.
     * @param key      hour, domain and partition.
     * @param settings store settings.
     * @param counters where damage is counted.
     * @param scratch  the writer's buffers for sealing.
     * @param lanes    the writer's lanes of the per-tree counts.
     * @param disk     where the files are opened.
     * @param onWriteError told of every failed seal (after it was counted), to log it now and then.
     * @return the open file set.
     */
    static HourFile open(final Path dir, final LogviewStore.FileKey key, final LogviewSettings settings,
        final LogviewCounters counters, final SealScratch scratch, final LogviewCounters.WriterLanes lanes,
        final Disk disk,
        final Consumer<IOException> onWriteError) throws IOException
    {
        Files.createDirectories(dir);
        final String stem = LogviewFiles.stem(key.domain(), key.partition());
        final FileChannel dat = disk.open(dir.resolve(stem + LogviewFiles.DAT), StandardOpenOption.CREATE,
            StandardOpenOption.READ, StandardOpenOption.WRITE);
        final FileChannel idx = disk.open(dir.resolve(stem + LogviewFiles.IDX), StandardOpenOption.CREATE,
            StandardOpenOption.READ, StandardOpenOption.WRITE);
        final FileChannel seg = disk.open(dir.resolve(stem + LogviewFiles.SEG), StandardOpenOption.CREATE,
            StandardOpenOption.READ, StandardOpenOption.WRITE);
        final HourFile file = new HourFile(key, settings, counters, scratch, lanes, dat, idx, seg, idx.size(),
            onWriteError);
        try
        {
            file.recover();
        }
        catch (final IOException | RuntimeException e)
        {
            file.close();
            throw e;
        }
        return file;
    }

    private void recover() throws IOException
    {
        final long size = dat.size();
        long intact = BlockFormat.intactLength(PositionalFile.of(dat), size);
        if (intact < size)
        {
            counters.damage.increment();
        }
        if (intact < BlockFormat.DAT_HEADER)
        {
            final ByteBuffer head = ByteBuffer.allocate(BlockFormat.DAT_HEADER).putLong(0, BlockFormat.DAT_MAGIC);
            BlockFormat.writeFully(dat, head, 0);
            intact = BlockFormat.DAT_HEADER;
        }
        dat.truncate(intact);
        datLength = intact;
        intactLength = intact;
        final long segSize = seg.size();
        segmentCount = BlockFormat.loadSegments(PositionalFile.of(seg), segSize, segments);
        if ((long)segmentCount * BlockFormat.SEG_RECORD < segSize)
        {
            counters.damage.increment();
            seg.truncate((long)segmentCount * BlockFormat.SEG_RECORD);
        }
    }

    LogviewStore.FileKey key()
    {
        return key;
    }

    // ------------------------------------------------------------------------------------------------ writer

    /**
     * Appends one tree (writer thread only).
     *
     * @param k           the tree's parsed id.
     * @param frame       the raw frame bytes.
     * @param frameLength their count.
     * @param nowMillis   the writer's clock, for sealing old blocks.
     */
    void append(final MessageKey k, final byte[] frame, final int frameLength, final long nowMillis)
    {
        if (blockLength >= settings.blockBytes() ||
            (blockLength > 0 && nowMillis - blockStartMillis >= settings.sealMillis()))
        {
            seal();
        }
        if (blockLength == 0)
        {
            blockStartMillis = nowMillis;
        }
        final int need = blockLength + BlockFormat.ENTRY_HEADER + frameLength;
        byte[] b = block;
        if (need > b.length)
        {
            // Readers still copying the old array see it intact: it is never written again.
            b = Arrays.copyOf(b, Math.max(need, b.length * 2));
            block = b;
        }
        final int at = blockLength;
        BlockFormat.putLong(b, at, k.clientKey());
        BlockFormat.putLong(b, at + 8, k.index());
        BlockFormat.putInt(b, at + 16, frameLength);
        System.arraycopy(frame, 0, b, at + BlockFormat.ENTRY_HEADER, frameLength);
        if (pending == pendingOffset.length)
        {
            growPending();
        }
        pendingClient[pending] = k.clientKey();
        pendingIndex[pending] = k.index();
        pendingOffset[pending] = at;
        pending++;
        blockLength = need;
        published.setRelease(need);
        lanes.treesStored().increment();
        lanes.rawBytes().add(frameLength);
    }

    /**
     * Compresses and writes the unsealed block and its index slots, then empties it (writer thread only). An I/O
     * error loses this block's trees: counted in {@code writeErrors}, and the files stay usable.
     */
    void seal()
    {
        if (blockLength == 0)
        {
            return;
        }
        // Odd while the index is written: a reader that reads a torn slot meanwhile retries instead of counting
        // damage. A volatile store, so that it is ordered before the file writes below.
        final long s = sequence.get();
        sequence.set(s + 1);
        try
        {
            final long blockOffset = datLength;
            writeBlock(blockOffset);
            // Published before the slots: a reader that sees a new slot also sees the block it points to.
            intactLength = datLength;
            writeSlots(blockOffset);
            counters.blocksSealed.increment();
            // before the count turns even: a search that copied the unsealed block before this seal then finds
            // these trees through the summaries (see LogviewSearch)
            for (int k = 0; k < links; k++)
            {
                indexes[k].write(summaries[k], key.domain(), blockOffset);
            }
        }
        catch (final IOException e)
        {
            counters.writeErrors.increment();
            for (int k = 0; k < links; k++)
            {
                summaries[k].clear();
            }
            onWriteError.accept(e);
            try
            {
                dat.truncate(intactLength);
            }
            catch (final IOException ignored)
            {
                // the next seal overwrites the same place anyway
            }
            datLength = intactLength;
        }
        // The block's bytes are rewritten only by later appends; the even count announces that before they happen.
        published.setRelease(0);
        blockLength = 0;
        pending = 0;
        sequence.setRelease(s + 2);
        VarHandle.storeStoreFence();
    }

    /**
     * @param index        the search index of a tree's header domain (writer thread only).
     * @param otherDomain  whether that domain is not this file's id domain.
     * @return the summary, in that index, of the block the next appended tree goes into.
     */
    BlockSummary summary(final SearchIndex index, final boolean otherDomain)
    {
        for (int k = 0; k < links; k++)
        {
            if (indexes[k] == index)
            {
                return summaries[k];
            }
        }
        if (links == indexes.length)
        {
            indexes = Arrays.copyOf(indexes, links * 2);
            summaries = Arrays.copyOf(summaries, links * 2);
        }
        if (otherDomain)
        {
            mixedDomains = true;
        }
        indexes[links] = index;
        summaries[links] = index.newSummary();
        return summaries[links++];
    }

    /**
     * @return whether trees of another header domain than this file's id domain were appended to it (a search of
     * that domain then reads this file's unsealed block too).
     */
    boolean mixedDomains()
    {
        return mixedDomains;
    }

    /**
     * Copies the unsealed block for a search (any thread). A copy overtaken by a seal is dropped: that seal wrote
     * the trees and their summaries before it completed, so the search finds them there.
     *
     * @return the block's entries, empty when none (or when they are all on disk).
     */
    byte[] unsealedCopy()
    {
        if (closed)
        {
            return EMPTY;
        }
        final long before = sequence.getAcquire();
        final int length = published.getAcquire();
        final byte[] b = block;
        final byte[] copy = Arrays.copyOf(b, Math.min(length, b.length));
        VarHandle.acquireFence();
        final long after = sequence.getAcquire();
        return after <= (before | 1) ? copy : EMPTY;
    }

    private void writeBlock(final long blockOffset) throws IOException
    {
        final LZ4Compressor compressor = scratch.compressor;
        final int max = BlockFormat.BLOCK_HEADER + compressor.maxCompressedLength(blockLength);
        final byte[] compressed = scratch.compressed(max);
        final int n = compressor.compress(block, 0, blockLength, compressed, BlockFormat.BLOCK_HEADER,
            max - BlockFormat.BLOCK_HEADER);
        final CRC32C crc = scratch.crc;
        crc.reset();
        crc.update(compressed, BlockFormat.BLOCK_HEADER, n);
        BlockFormat.putInt(compressed, 0, BlockFormat.BLOCK_MAGIC);
        BlockFormat.putInt(compressed, 4, n);
        BlockFormat.putInt(compressed, 8, blockLength);
        BlockFormat.putInt(compressed, 12, (int)crc.getValue());
        BlockFormat.writeFully(dat, scratch.compressedView.clear().limit(BlockFormat.BLOCK_HEADER + n), blockOffset);
        datLength = blockOffset + BlockFormat.BLOCK_HEADER + n;
        counters.compressedBytes.add(BlockFormat.BLOCK_HEADER + n);
    }

    /**
     * Writes one slot per pending entry, sorted by position so that neighbouring slots go out in one write; for a
     * reused id the later entry wins (the sort key keeps the append order among equal positions).
     */
    private void writeSlots(final long blockOffset) throws IOException
    {
        final long[] sortKeys = scratch.sortKeys(pending);
        final ByteBuffer slotRun = scratch.slotRun;
        int n = 0;
        for (int i = 0; i < pending; i++)
        {
            final int segment = segmentFor(pendingClient[i], pendingIndex[i] >>> BlockFormat.SEGMENT_SHIFT);
            if (segment < 0)
            {
                counters.notIndexed.increment();
                continue;
            }
            final long slotPos = (long)segment * BlockFormat.SEGMENT_BYTES +
                (pendingIndex[i] & (BlockFormat.SEGMENT_SLOTS - 1)) * 8L;
            // slotPos < 2^31 (65,536 segments of 32 KB), i < 2^22 entries per block
            sortKeys[n++] = (slotPos << 22) | i;
        }
        Arrays.sort(sortKeys, 0, n);
        slotRun.clear();
        long runStart = -1;
        long runNext = -1;
        for (int j = 0; j < n; j++)
        {
            final long slotPos = sortKeys[j] >>> 22;
            final int i = (int)(sortKeys[j] & ((1 << 22) - 1));
            if (j + 1 < n && (sortKeys[j + 1] >>> 22) == slotPos)
            {
                continue; // a later entry with the same id follows: last write wins
            }
            if (slotPos != runNext || !slotRun.hasRemaining())
            {
                flushRun(slotRun, runStart);
                runStart = slotPos;
            }
            slotRun.putLong(BlockFormat.slot(blockOffset, pendingOffset[i]));
            runNext = slotPos + 8;
        }
        flushRun(slotRun, runStart);
    }

    private void flushRun(final ByteBuffer slotRun, final long runStart) throws IOException
    {
        if (slotRun.position() > 0)
        {
            slotRun.flip();
            BlockFormat.writeFully(idx, slotRun, runStart);
            slotRun.clear();
        }
    }

    private int segmentFor(final long client, final long segment) throws IOException
    {
        final int c = (int)((client * 0x9E3779B97F4A7C15L + segment) >>> 58) & (CACHE - 1);
        if (cacheClient[c] == client && cacheSegment[c] == segment)
        {
            return cacheNumber[c];
        }
        final SegmentKey sk = new SegmentKey(client, segment);
        Integer number = segments.get(sk);
        if (number == null)
        {
            if (segmentCount >= settings.maxSegmentsPerFile())
            {
                return -1;
            }
            number = segmentCount;
            final long region = (long)number * BlockFormat.SEGMENT_BYTES;
            if (region < idxSizeAtOpen)
            {
                // left over from before a crash that lost the segment record: clear stale slots
                BlockFormat.writeFully(idx, ZEROS.duplicate(), region);
            }
            final ByteBuffer segRecord = scratch.segRecord.clear();
            segRecord.putLong(0, client).putLong(8, segment).putLong(16, BlockFormat.segmentCheck(client, segment));
            BlockFormat.writeFully(seg, segRecord, (long)number * BlockFormat.SEG_RECORD);
            segmentCount++;
            segments.put(sk, number);
        }
        cacheClient[c] = client;
        cacheSegment[c] = segment;
        cacheNumber[c] = number;
        return number;
    }

    private void growPending()
    {
        final int n = pendingOffset.length * 2;
        pendingClient = Arrays.copyOf(pendingClient, n);
        pendingIndex = Arrays.copyOf(pendingIndex, n);
        pendingOffset = Arrays.copyOf(pendingOffset, n);
    }

    /**
     * Seals the last block and closes the files (writer thread; also on store shutdown).
     */
    void close()
    {
        if (closed)
        {
            return;
        }
        seal();
        closed = true;
        closeQuietly(dat);
        closeQuietly(idx);
        closeQuietly(seg);
    }

    private static void closeQuietly(final FileChannel ch)
    {
        try
        {
            ch.close();
        }
        catch (final IOException ignored)
        {
            // nothing left to lose: every block was written before
        }
    }

    // ------------------------------------------------------------------------------------------------ readers

    /**
     * Looks a tree up (any thread): the unsealed block first (it holds the newest trees), then the index on disk.
     *
     * @param k parsed id.
     * @return the frame, or null when this file does not hold it.
     * @throws IOException when the files were closed meanwhile (the caller then reads them as closed files).
     */
    byte[] find(final MessageKey k) throws IOException
    {
        final long deadline = System.nanoTime() + READ_PATIENCE_NANOS;
        for (int attempt = 0; ; attempt++)
        {
            if (closed)
            {
                throw new java.nio.channels.ClosedChannelException();
            }
            if (attempt > 0)
            {
                if (System.nanoTime() - deadline > 0)
                {
                    counters.lookupTimeouts.increment();
                    return null;
                }
                Thread.yield(); // our index read raced a seal: let the writer finish it
            }
            final long before = sequence.getAcquire();
            final int length = published.getAcquire();
            final byte[] b = block;
            final byte[] copy = Arrays.copyOf(b, Math.min(length, b.length));
            VarHandle.acquireFence();
            final long after = sequence.getAcquire();
            if (after <= (before | 1))
            {
                // the block was not emptied during the copy, so the copy is exact (a seal in flight leaves the
                // bytes alone, and once it has written the slots it publishes length 0)
                final byte[] unsealed = BlockFormat.frameOf(copy, 0, copy.length, k, false);
                if (unsealed != null)
                {
                    return unsealed;
                }
            }
            // Not in the unsealed block, or the copy was overtaken: then a seal completed after `before`, so every
            // tree appended before the look-up began is on disk and indexed. Either way the index answers.
            final long slot = BlockFormat.readSlot(idxView, segments, k);
            if (slot == 0)
            {
                return null;
            }
            final byte[] frame = BlockFormat.readSlotFrame(datView, intactLength, slot, k);
            if (frame != null)
            {
                return frame;
            }
            if ((after & 1) == 0 && sequence.getAcquire() == after)
            {
                // no seal wrote the index while we read it: the slot really leads nowhere
                counters.damage.increment();
                return null;
            }
        }
    }
}
