package io.cheetah.server.logview;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Buffers one writer thread uses to seal blocks, shared by all of that writer's open files so that the memory per
 * open file is only its unsealed block. Owned by a {@link LogviewWriter}; never touched by readers.
 */
final class SealScratch
{
    final CRC32C crc = new CRC32C();
    final ByteBuffer slotRun = ByteBuffer.allocateDirect(BlockFormat.SEGMENT_BYTES);
    final ByteBuffer segRecord = ByteBuffer.allocate(BlockFormat.SEG_RECORD);
    ByteBuffer compressedView = ByteBuffer.allocate(0);
    private byte[] compressed = new byte[0];
    private long[] sortKeys = new long[256];

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
