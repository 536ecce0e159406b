package io.cheetah.codec;

import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

/**
 * Decodes an NM1 (or, as the 4.0-RC1 jar writes it, NB1) metric bag (docs/protocol.md §1.5) into a {@link FlatTree}
 * of codec {@link FlatTree#CODEC_NM1}: the header holds domain, hostname and ip (the other header fields and the
 * message id are empty), and every entry becomes a top-level {@link MessageKind#METRIC} message with type
 * {@code ""}, name, status = the kind ({@code COUNT}, {@code SUM}, {@code DURATION}), its timestamp, its count and
 * sum in {@link FlatTree#setBagValues(int, long, double)} and its duration (ms on the wire) as microseconds.
 * A string written as the single byte {@code 0xFF} (the writer's null marker) is consumed and read as {@code ""}.
 * Not thread-safe: one per decoding thread. Called by {@link TreeDecoder}.
 */
public final class Nm1Decoder extends WireReader
{
    /** Smallest wire size of one entry: six one-byte fields. */
    private static final int MIN_ENTRY_BYTES = 6;

    /** The symbol of the string {@link #readNullable()} read last. */
    private int lastSymbol = FlatTree.NO_SYMBOL;


    /**
     * @param limits   size bounds.
     * @param interner this thread's string cache.
     */
    public Nm1Decoder(final DecodeLimits limits, final Utf8Interner interner)
    {
        super(limits, interner);
    }

    /**
     * Decodes one metric-bag payload.
     *
     * @param src    bytes.
     * @param offset first byte of the payload (the {@code N} of {@code NM1}).
     * @param length payload length.
     * @param base   offset of the frame start, so error offsets are frame-relative.
     * @param tree   destination, which the caller has reset.
     * @throws MalformedFrameException naming why the payload is not a valid bag.
     */
    public void decode(final byte[] src, final int offset, final int length, final int base, final FlatTree tree)
        throws MalformedFrameException
    {
        start(src, offset, length, base);
        try
        {
            final String domain = readNullable();
            final int domainSymbol = lastSymbol;
            final String hostname = readNullable();
            final String ip = readNullable();
            final int ipSymbol = lastSymbol;
            tree.setHeader(FlatTree.CODEC_NM1, domain, hostname, ip, "", "", "", "", "", "");
            tree.setHeaderSymbols(domainSymbol, ipSymbol);
            final int countAt = pos;
            final long count = readVarLong();
            if (count < 0 || count > limits.maxMessages())
            {
                throw error(FrameError.TOO_MANY_MESSAGES, countAt, "bag of " + count + " metrics");
            }
            if (count * MIN_ENTRY_BYTES > end - pos)
            {
                throw error(FrameError.TRUNCATED, countAt, "bag of " + count + " metrics in " + (end - pos) +
                    " bytes");
            }
            if (count == 0)
            {
                throw error(FrameError.EMPTY_TREE, countAt, "bag without metrics");
            }
            for (long k = 0; k < count; k++)
            {
                final long ts = readVarLong();
                final String name = readNullable();
                final int nameSymbol = lastSymbol;
                final String kind = readNullable();
                final long n = readVarLong();
                final double sum = Double.longBitsToDouble(readVarLong());
                final long durationMs = readVarLong();
                final int i = tree.add(MessageKind.METRIC, FlatTree.NONE, "", name, ts);
                tree.setSymbols(i, interner.emptySymbol(), nameSymbol);
                tree.setStatus(i, kind);
                tree.setBagValues(i, n, sum);
                tree.setDurationMicros(i, durationMs * 1000);
            }
            if (pos != end)
            {
                throw error(FrameError.TRAILING_DATA, pos, (end - pos) + " bytes after the last metric");
            }
        }
        finally
        {
            this.buf = null;
        }
    }

    /** A string, or the writer's one-byte null marker {@code 0xFF} read as {@code ""}. */
    private String readNullable() throws MalformedFrameException
    {
        if (pos < end && buf[pos] == (byte)0xFF)
        {
            pos++;
            lastSymbol = FlatTree.NO_SYMBOL;
            return "";
        }
        final String s = readInterned();
        lastSymbol = interner.lastSymbol();
        return s;
    }
}
