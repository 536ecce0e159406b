package io.cheetah.logview.search;

import java.util.zip.CRC32C;

/**
 * Frames and checks the records of a search index file ({@link SearchFormat}): a writer reserves five bytes, writes
 * the payload after them and calls {@link #close}; a reader walks records with {@link #next} and stops at the first
 * one that is incomplete or fails its checksum (a torn tail, or a record the writer is still writing).
 */
final class SearchRecords
{
    private static final ThreadLocal<CRC32C> CRC = ThreadLocal.withInitial(CRC32C::new);

    private SearchRecords()
    {
    }

    /**
     * Completes a record whose payload was written at {@code start + 5 .. end}.
     *
     * @param b     the buffer, with four free bytes after {@code end}.
     * @param start where the record starts.
     * @param kind  its kind.
     * @param end   where its payload ends.
     * @return where the record ends.
     */
    static int close(final byte[] b, final int start, final byte kind, final int end)
    {
        final int payload = end - start - 5;
        putInt(b, start, payload);
        b[start + 4] = kind;
        final CRC32C crc = CRC.get();
        crc.reset();
        crc.update(b, start + 4, payload + 1);
        putInt(b, end, (int)crc.getValue());
        return end + 4;
    }

    /**
     * @param b     bytes read from a file.
     * @param at    where a record may start.
     * @param limit how many bytes are valid.
     * @return where the record ends, or -1 when no whole, intact record starts at {@code at}.
     */
    static int next(final byte[] b, final int at, final int limit)
    {
        if (limit - at < SearchFormat.RECORD_OVERHEAD)
        {
            return -1;
        }
        final int payload = getInt(b, at);
        if (payload < 0 || payload > SearchFormat.MAX_PAYLOAD ||
            (long)at + SearchFormat.RECORD_OVERHEAD + payload > limit)
        {
            return -1;
        }
        final CRC32C crc = CRC.get();
        crc.reset();
        crc.update(b, at + 4, payload + 1);
        if ((int)crc.getValue() != getInt(b, at + 5 + payload))
        {
            return -1;
        }
        return at + SearchFormat.RECORD_OVERHEAD + payload;
    }

    static void putInt(final byte[] b, final int i, final int v)
    {
        b[i] = (byte)(v >>> 24);
        b[i + 1] = (byte)(v >>> 16);
        b[i + 2] = (byte)(v >>> 8);
        b[i + 3] = (byte)v;
    }

    static int getInt(final byte[] b, final int i)
    {
        return (b[i] & 0xFF) << 24 | (b[i + 1] & 0xFF) << 16 | (b[i + 2] & 0xFF) << 8 | (b[i + 3] & 0xFF);
    }
}
