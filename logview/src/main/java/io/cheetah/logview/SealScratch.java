package io.cheetah.logview;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Buffers one writer thread uses to seal blocks, shared by all of that writer's open files so that the memory per
 * open file is only its unsealed block. Owned by a {@link LogviewWriter}; never touched by readers.
 */
final class SealScratch
{
    final CRC32C crc = new CRC32C();
    /**
     * This writer's compressor: native LZ4 whose state is reset cheaply between blocks instead of cleared on every
     * call (one per writer: it is not thread-safe). LZ4's acceleration stays at 1: 2 and 4 saved 2-4 % of a
     * tree's write cost for 1-3 % larger blocks (LogviewWriteBenchmark, BENCHMARKS.md session 10).
     */
    final LZ4Compressor compressor = compressor();
    final ByteBuffer slotRun = ByteBuffer.allocateDirect(BlockFormat.SEGMENT_BYTES);
    final ByteBuffer segRecord = ByteBuffer.allocate(BlockFormat.SEG_RECORD);
    ByteBuffer compressedView = ByteBuffer.allocate(0);
    private byte[] compressed = new byte[0];
    private long[] sortKeys = new long[256];

    private static LZ4Compressor compressor()
    {
        try
        {
            return LZ4Factory.nativeInstance().fastResetCompressor();
        }
        catch (final RuntimeException | LinkageError e)
        {
            return LZ4Factory.fastestInstance().fastCompressor(); // no native library for this platform
        }
    }

    byte[] compressed(final int capacity)
    {
        if (compressed.length < capacity)
        {
            compressed = new byte[capacity];
            compressedView = ByteBuffer.wrap(compressed);
        }
        return compressed;
    }

    long[] sortKeys(final int capacity)
    {
        if (sortKeys.length < capacity)
        {
            sortKeys = new long[Math.max(capacity, sortKeys.length * 2)];
        }
        return sortKeys;
    }
}
