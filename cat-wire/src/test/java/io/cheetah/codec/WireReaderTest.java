package io.cheetah.codec;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The varint and string-length readers read what the bytes say wherever a value sits in the payload: the word-wide
 * path (a value of up to eight bytes with eight bytes left) and the byte-by-byte one (longer values, or fewer bytes
 * left) agree, neither reads past the payload's end, and bytes after a value never change it.
 */
class WireReaderTest
{
    /** A reader over a payload that starts right at {@code from} (no codec name). */
    private static final class Reader extends WireReader
    {
        Reader(final byte[] src, final int from, final int to)
        {
            super(DecodeLimits.DEFAULT, new Utf8Interner(16));
            start(src, from - 3, to - from + 3, 0);
        }

        long varLong() throws MalformedFrameException
        {
            return readVarLong();
        }

        int position()
        {
            return pos;
        }
    }

    @Property(tries = 3000)
    void aVarintReadsBackWhateverFollowsItAndWhereverThePayloadEnds(@ForAll final long value,
        @ForAll @IntRange(min = 0, max = 63) final int bits, @ForAll @IntRange(min = 0, max = 12) final int after,
        @ForAll final byte filler, @ForAll final boolean padded)
    {
        final long v = bits == 63 ? value : value & ((1L << bits) - 1);
        final byte[] encoded = leb128(v, padded);
        final byte[] buf = new byte[5 + encoded.length + after + 8];
        Arrays.fill(buf, filler);
        System.arraycopy(encoded, 0, buf, 5, encoded.length);
        final int end = 5 + encoded.length + after;
        final Reader r = new Reader(buf, 5, end);
        assertThat(catching(r)).isEqualTo(v);
        assertThat(r.position()).isEqualTo(5 + encoded.length);
    }

    @Property(tries = 1000)
    void aVarintCutByThePayloadsEndIsTruncatedWhateverBytesLieBeyond(@ForAll final long value,
        @ForAll final byte filler)
    {
        final byte[] encoded = leb128(value | Long.MIN_VALUE >>> 8, false);
        for (int cut = 0; cut < encoded.length; cut++)
        {
            final byte[] buf = new byte[encoded.length + 16];
            Arrays.fill(buf, filler);
            System.arraycopy(encoded, 0, buf, 0, encoded.length);
            final Reader r = new Reader(buf, 0, cut);
            assertThatThrownBy(r::varLong).isInstanceOf(MalformedFrameException.class)
                .extracting(e -> ((MalformedFrameException)e).error()).isEqualTo(FrameError.TRUNCATED);
        }
    }

    @Test
    void aVarintOfElevenBytesIsTooLong()
    {
        final byte[] buf = new byte[24];
        Arrays.fill(buf, 0, 10, (byte)0x80);
        final Reader r = new Reader(buf, 0, buf.length);
        assertThatThrownBy(r::varLong).isInstanceOf(MalformedFrameException.class)
            .extracting(e -> ((MalformedFrameException)e).error()).isEqualTo(FrameError.VARINT_TOO_LONG);
    }

    @Property(tries = 1000)
    void aStringLengthOfOneOrMoreBytesPointsAtItsBytes(@ForAll @IntRange(min = 0, max = 70_000) final int length,
        @ForAll @IntRange(min = 0, max = 3) final int after)
    {
        final byte[] prefix = leb128(length, false);
        final byte[] buf = new byte[2 + prefix.length + length + after];
        System.arraycopy(prefix, 0, buf, 2, prefix.length);
        final Reader exact = new Reader(buf, 2, buf.length);
        catchingBytes(exact);
        assertThat(exact.strOffset).isEqualTo(2 + prefix.length);
        assertThat(exact.strLength).isEqualTo(length);
        assertThat(exact.position()).isEqualTo(2 + prefix.length + length);
        if (length > 0)
        {
            final Reader overrun = new Reader(buf, 2, 2 + prefix.length + length - 1);
            assertThatThrownBy(overrun::readBytes).isInstanceOf(MalformedFrameException.class)
                .extracting(e -> ((MalformedFrameException)e).error()).isEqualTo(FrameError.STRING_OVERRUN);
        }
    }

    /** Unsigned LEB128; {@code padded} adds a redundant continuation byte, which CAT's readers accept too. */
    private static byte[] leb128(final long value, final boolean padded)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        long v = value;
        while ((v & ~0x7FL) != 0)
        {
            out.write((int)((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        if (padded && out.size() < 9)
        {
            out.write((int)(v | 0x80));
            out.write(0);
        }
        else
        {
            out.write((int)v);
        }
        return out.toByteArray();
    }

    private static long catching(final Reader r)
    {
        try
        {
            return r.varLong();
        }
        catch (final MalformedFrameException e)
        {
            throw new AssertionError(e);
        }
    }

    private static void catchingBytes(final Reader r)
    {
        try
        {
            r.readBytes();
        }
        catch (final MalformedFrameException e)
        {
            throw new AssertionError(e);
        }
    }
}
