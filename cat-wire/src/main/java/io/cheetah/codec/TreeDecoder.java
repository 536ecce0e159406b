package io.cheetah.codec;

import io.cheetah.message.FlatTree;
import io.cheetah.message.SymbolStrings;

import java.time.ZoneId;
import java.util.Map;

/**
 * Decodes one whole frame (4-byte length prefix + payload) into a {@link FlatTree}, choosing the codec from the
 * payload's first three bytes: {@code NT1}, {@code PT1}, {@code NM1} or {@code NB1}. The ingest layer calls it on
 * its worker thread for every frame; tools and tests call it too. One instance per thread.
 * <p>
 * Every failure is a {@link MalformedFrameException} naming a {@link FrameError}; nothing else is thrown for any
 * input bytes (a property test feeds it random bytes).
 */
public final class TreeDecoder
{
    private final DecodeLimits limits;
    /** The table of the symbols the interner hands out (null without one): named on every tree decoded. */
    private final SymbolStrings symbolStrings;
    private final Nt1Decoder nt1;
    private final Pt1Decoder pt1;
    private final Nm1Decoder nm1;

    /**
     * @param limits   bounds applied to every frame.
     * @param interner this thread's string cache.
     * @param pt1Zones the zones PT1 timestamps are read in: one for all ({@link Pt1Decoder#DEFAULT_ZONE}, GMT+8, as
     *                 CAT does) and those of particular domains.
     */
    public TreeDecoder(final DecodeLimits limits, final Utf8Interner interner, final Pt1Zones pt1Zones)
    {
        this.limits = limits;
        this.nt1 = new Nt1Decoder(limits, interner);
        this.pt1 = new Pt1Decoder(limits, interner, pt1Zones);
        this.nm1 = new Nm1Decoder(limits, interner);
        this.symbolStrings = interner.shared();
    }

    /**
     * @param limits   bounds applied to every frame.
     * @param interner this thread's string cache.
     * @param pt1Zone  the zone PT1 timestamps are read in ({@link Pt1Decoder#DEFAULT_ZONE}, GMT+8, as CAT does).
     */
    public TreeDecoder(final DecodeLimits limits, final Utf8Interner interner, final ZoneId pt1Zone)
    {
        this(limits, interner, new Pt1Zones(pt1Zone, Map.of()));
    }

    /**
     * @param limits   bounds applied to every frame.
     * @param interner this thread's string cache.
     */
    public TreeDecoder(final DecodeLimits limits, final Utf8Interner interner)
    {
        this(limits, interner, Pt1Decoder.DEFAULT_ZONE);
    }

    /**
     * A decoder with {@link DecodeLimits#DEFAULT} and its own interner.
     */
    public TreeDecoder()
    {
        this(DecodeLimits.DEFAULT, new Utf8Interner());
    }

    /**
     * @return the limits this decoder applies.
     */
    public DecodeLimits limits()
    {
        return limits;
    }

    /**
     * @return the zone PT1 timestamps are read in, unless their domain has its own.
     */
    public ZoneId pt1Zone()
    {
        return pt1.zone();
    }

    /**
     * @return true when the last PT1 frame decoded belongs to a domain with a zone of its own ({@link Pt1Zones}) and
     *         was read in it; meaningful right after a PT1 tree was decoded.
     */
    public boolean pt1DomainZone()
    {
        return pt1.domainZone();
    }

    /**
     * Copies a frame into the tree and decodes it.
     *
     * @param src    bytes.
     * @param offset first byte of the frame (its length prefix).
     * @param length frame length, prefix included.
     * @param tree   destination; reset first.
     * @throws MalformedFrameException naming why the frame is not a valid tree.
     */
    public void decodeFrame(final byte[] src, final int offset, final int length, final FlatTree tree)
        throws MalformedFrameException
    {
        tree.reset();
        tree.setFrame(src, offset, length);
        decodeFrameInPlace(tree);
    }

    /**
     * Decodes the frame already copied into {@link FlatTree#frame()} (the ingest path: one copy from the network
     * buffer, then decoding reads that copy). The tree's messages are replaced; its frame is kept.
     *
     * @param tree holding a raw frame.
     * @throws MalformedFrameException naming why the frame is not a valid tree.
     */
    public void decodeFrameInPlace(final FlatTree tree) throws MalformedFrameException
    {
        final byte[] frame = tree.frame();
        final int frameLength = tree.frameLength();
        if (frameLength < 4)
        {
            throw new MalformedFrameException(FrameError.TRUNCATED, 0, "frame shorter than its length prefix");
        }
        final int declared = ((frame[0] & 0xFF) << 24) | ((frame[1] & 0xFF) << 16) | ((frame[2] & 0xFF) << 8) |
            (frame[3] & 0xFF);
        if (declared <= 0)
        {
            throw new MalformedFrameException(FrameError.NON_POSITIVE_LENGTH, 0, "length prefix " + declared);
        }
        if (declared > limits.maxFrameBytes())
        {
            throw new MalformedFrameException(FrameError.FRAME_TOO_LARGE, 0,
                "length prefix " + declared + " over the cap of " + limits.maxFrameBytes());
        }
        if (declared != frameLength - 4)
        {
            throw new MalformedFrameException(FrameError.TRUNCATED, 4,
                "length prefix " + declared + " but " + (frameLength - 4) + " payload bytes");
        }
        if (declared < 3)
        {
            throw new MalformedFrameException(FrameError.UNKNOWN_CODEC, 4, "payload shorter than a codec id");
        }
        tree.setSymbolStrings(symbolStrings);
        final byte c0 = frame[4];
        final byte c1 = frame[5];
        final byte c2 = frame[6];
        if (c0 == 'N' && c1 == 'T' && c2 == '1')
        {
            nt1.decode(frame, 4, declared, 0, tree);
        }
        else if (c0 == 'P' && c1 == 'T' && c2 == '1')
        {
            pt1.decode(frame, 4, declared, 0, tree);
        }
        else if (c0 == 'N' && (c1 == 'M' || c1 == 'B') && c2 == '1')
        {
            nm1.decode(frame, 4, declared, 0, tree);
        }
        else
        {
            throw new MalformedFrameException(FrameError.UNKNOWN_CODEC, 4, "codec id " + printable(c0, c1, c2));
        }
    }

    private static String printable(final byte... id)
    {
        final StringBuilder sb = new StringBuilder(12);
        for (final byte b : id)
        {
            if (b >= 0x20 && b < 0x7F)
            {
                sb.append((char)b);
            }
            else
            {
                sb.append("\\x").append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
        }
        return sb.toString();
    }
}
