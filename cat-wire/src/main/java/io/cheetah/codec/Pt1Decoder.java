package io.cheetah.codec;

import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Map;

/**
 * Decodes a PT1 text payload (docs/protocol.md §1.4) into a {@link FlatTree}, nested with an explicit stack.
 * <p>
 * The payload is a header line {@code PT1 TAB domain … TAB sessionToken LF}, then record lines
 * {@code <tag><yyyy-MM-dd HH:mm:ss.SSS> TAB field TAB … field TAB LF} with tags {@code t} (begin), {@code T} (end:
 * its timestamp is the end time and is ignored; the duration comes from its {@code <n>us} field), {@code A}
 * (a transaction without children), {@code E H M L}. What it copes with:
 * <ul>
 *   <li>timestamps are wall-clock text in one zone, GMT+8 unless configured ({@link #DEFAULT_ZONE}), or in the zone
 *       of the tree's domain where {@link Pt1Zones} gives it one of its own ({@link #domainZone()});</li>
 *   <li>the Java escapes {@code \t \r \n \\} in type, name, status and data are undone; any other backslash is
 *       kept as it is;</li>
 *   <li>a header field that is the literal word {@code null} becomes {@code ""} (other fields keep it);</li>
 *   <li>clients that do not escape (ccat): the last field of a line ends at the TAB LF (or LF) that is followed by
 *       the start of a record or by the end of the payload, so raw LF/CR/TAB inside data survive; such a field
 *       adds a warning to the tree ({@link FlatTree#warning(int)}). A raw TAB in an earlier field cannot be told
 *       from a separator and shifts the fields, as in stock CAT.</li>
 * </ul>
 * Not thread-safe: one per decoding thread. Called by {@link TreeDecoder}.
 */
public final class Pt1Decoder
{
    /** The zone CAT's own PT1 encoder and decoder hard-code. */
    public static final ZoneId DEFAULT_ZONE = ZoneOffset.ofHours(8);

    private static final int HEADER_FIELDS = 10;
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    private final DecodeLimits limits;
    private final Utf8Interner interner;
    private final Pt1Zones zones;
    private Pt1Clock clock;
    private boolean domainZone;
    private int[] stack = new int[64];
    private byte[] scratch = new byte[256];
    private int scratchLength;
    private final int[] fieldStart = new int[HEADER_FIELDS + 1];
    private final int[] fieldEnd = new int[HEADER_FIELDS + 1];

    private byte[] buf;
    private int pos;
    private int start;
    private int end;
    private int base;

    /**
     * @param limits   depth and size bounds.
     * @param interner this thread's string cache.
     * @param zones    the zones PT1 timestamps are written in: one for all, and per domain.
     */
    public Pt1Decoder(final DecodeLimits limits, final Utf8Interner interner, final Pt1Zones zones)
    {
        this.limits = limits;
        this.interner = interner;
        this.zones = zones;
        this.clock = zones.clock();
    }

    /**
     * @param limits   depth and size bounds.
     * @param interner this thread's string cache.
     * @param zone     the zone PT1 timestamps are written in.
     */
    public Pt1Decoder(final DecodeLimits limits, final Utf8Interner interner, final ZoneId zone)
    {
        this(limits, interner, new Pt1Zones(zone, Map.of()));
    }

    /**
     * @param limits   depth and size bounds.
     * @param interner this thread's string cache.
     */
    public Pt1Decoder(final DecodeLimits limits, final Utf8Interner interner)
    {
        this(limits, interner, DEFAULT_ZONE);
    }

    /**
     * @return the zone timestamps are read in.
     */
    public ZoneId zone()
    {
        return zones.zone();
    }

    /**
     * @return true when the last payload decoded (its header, at least) belongs to a domain with a zone of its own
     *         and its timestamps were read in that zone.
     */
    public boolean domainZone()
    {
        return domainZone;
    }

    /**
     * Decodes one PT1 payload. The tree's header, message id, messages and warnings are replaced; its frame bytes
     * are left as they are.
     *
     * @param src    bytes.
     * @param offset first byte of the payload (the {@code P} of {@code PT1}).
     * @param length payload length.
     * @param base   offset of the frame start, so error offsets are frame-relative.
     * @param tree   destination, which the caller has reset.
     * @throws MalformedFrameException naming why the payload is not a valid tree.
     */
    public void decode(final byte[] src, final int offset, final int length, final int base, final FlatTree tree)
        throws MalformedFrameException
    {
        this.buf = src;
        this.start = offset;
        this.pos = offset + 3;
        this.end = offset + length;
        this.base = base;
        this.clock = zones.clock();
        this.domainZone = false;
        try
        {
            readHeader(tree);
            readRecords(tree);
        }
        finally
        {
            this.buf = null;
        }
    }

    private void readHeader(final FlatTree tree) throws MalformedFrameException
    {
        if (pos >= end || buf[pos] != '\t')
        {
            throw error(FrameError.BAD_TEXT, pos, "no TAB after the codec id");
        }
        pos++;
        int lineEnd = pos;
        while (lineEnd < end && buf[lineEnd] != '\n')
        {
            lineEnd++;
        }
        if (lineEnd == end)
        {
            throw error(FrameError.TRUNCATED, pos, "header line without LF");
        }
        int fields = 0;
        int at = pos;
        for (int p = pos; p <= lineEnd && fields < fieldStart.length; p++)
        {
            if (p == lineEnd || buf[p] == '\t')
            {
                fieldStart[fields] = at;
                fieldEnd[fields] = p;
                fields++;
                at = p + 1;
            }
        }
        // a trailing TAB leaves an empty 11th field; anything more is not a PT1 header
        if (fields < HEADER_FIELDS || (fields > HEADER_FIELDS && fieldEnd[HEADER_FIELDS] != lineEnd) ||
            (fields > HEADER_FIELDS && fieldStart[HEADER_FIELDS] != fieldEnd[HEADER_FIELDS]))
        {
            throw error(FrameError.BAD_TEXT, pos, "header has " + fields + " fields, not " + HEADER_FIELDS);
        }
        final String domain = headerInterned(0);
        final int domainSymbol = headerSymbol(0);
        final String hostname = headerInterned(1);
        final String ip = headerInterned(2);
        final int ipSymbol = headerSymbol(2);
        final String group = headerInterned(3);
        final String threadId = headerInterned(4);
        final String threadName = headerInterned(5);
        final String parent = headerPlain(7);
        final String root = headerPlain(8);
        final String session = headerPlain(9);
        tree.setHeader(FlatTree.CODEC_PT1, domain, hostname, ip, group, threadId, threadName, parent, root, session);
        tree.setHeaderSymbols(domainSymbol, ipSymbol);
        final Pt1Clock own = zones.clockOf(domain);
        if (own != null)
        {
            clock = own;
            domainZone = true;
        }
        if (isNull(6))
        {
            tree.setMessageId(buf, fieldStart[6], 0);
        }
        else
        {
            tree.setMessageId(buf, fieldStart[6], fieldEnd[6] - fieldStart[6]);
        }
        pos = lineEnd + 1;
    }

    private boolean isNull(final int field)
    {
        return Arrays.equals(buf, fieldStart[field], fieldEnd[field], NULL, 0, NULL.length);
    }

    private String headerInterned(final int field)
    {
        return isNull(field) ? "" : interner.intern(buf, fieldStart[field], fieldEnd[field] - fieldStart[field]);
    }

    /** The symbol of the field {@link #headerInterned} just read ({@code "null"} fields have none). */
    private int headerSymbol(final int field)
    {
        return isNull(field) ? FlatTree.NO_SYMBOL : interner.lastSymbol();
    }

    private String headerPlain(final int field)
    {
        final int length = fieldEnd[field] - fieldStart[field];
        return length == 0 || isNull(field) ? "" :
            new String(buf, fieldStart[field], length, StandardCharsets.UTF_8);
    }

    private void readRecords(final FlatTree tree) throws MalformedFrameException
    {
        final int maxDepth = limits.maxDepth();
        int depth = 0;
        boolean rootDone = false;
        while (pos < end)
        {
            final int tagAt = pos;
            final byte tag = buf[pos];
            if (!isTag(tag))
            {
                throw error(FrameError.UNKNOWN_RECORD, tagAt, "record tag 0x" + Integer.toHexString(tag & 0xFF));
            }
            if (end - pos < 2 + Pt1Clock.TEXT_LENGTH)
            {
                throw error(FrameError.TRUNCATED, tagAt, "record cut off in its timestamp");
            }
            final long ts = clock.parse(buf, pos + 1);
            if (ts == Pt1Clock.INVALID || buf[pos + 1 + Pt1Clock.TEXT_LENGTH] != '\t')
            {
                throw error(FrameError.BAD_TEXT, pos + 1, "not a yyyy-MM-dd HH:mm:ss.SSS timestamp");
            }
            pos += 2 + Pt1Clock.TEXT_LENGTH;
            if ((rootDone || (depth == 0 && tree.size() > 0)) && tag != 'T')
            {
                throw error(FrameError.TRAILING_DATA, tagAt, "a second top-level message");
            }
            if (tag != 'T' && tree.size() == limits.maxMessages())
            {
                throw error(FrameError.TOO_MANY_MESSAGES, tagAt, "more than " + limits.maxMessages() + " messages");
            }
            final int parent = depth == 0 ? FlatTree.NONE : stack[depth - 1];
            switch (tag)
            {
                case 't':
                {
                    final String type = readField(false, tree);
                    final int typeSymbol = interner.lastSymbol();
                    final String name = readField(true, tree);
                    final int nameSymbol = interner.lastSymbol();
                    if (depth == maxDepth)
                    {
                        throw error(FrameError.TOO_DEEP, tagAt, "nesting deeper than " + maxDepth);
                    }
                    final int i = tree.add(MessageKind.TRANSACTION, parent, type, name, ts);
                    tree.setSymbols(i, typeSymbol, nameSymbol);
                    if (depth == stack.length)
                    {
                        stack = Arrays.copyOf(stack, Math.min(maxDepth, depth * 2));
                    }
                    stack[depth++] = i;
                    break;
                }
                case 'A':
                {
                    final String type = readField(false, tree);
                    final int typeSymbol = interner.lastSymbol();
                    final String name = readField(false, tree);
                    final int nameSymbol = interner.lastSymbol();
                    final int i = tree.add(MessageKind.TRANSACTION, parent, type, name, ts);
                    tree.setSymbols(i, typeSymbol, nameSymbol);
                    readTransactionEnd(tree, i);
                    rootDone = depth == 0;
                    break;
                }
                case 'T':
                {
                    if (rootDone || depth == 0)
                    {
                        throw error(FrameError.END_WITHOUT_BEGIN, tagAt, "transaction end with nothing open");
                    }
                    skipField();
                    skipField();
                    readTransactionEnd(tree, stack[--depth]);
                    rootDone = depth == 0;
                    break;
                }
                default:
                {
                    final MessageKind kind = tag == 'E' ? MessageKind.EVENT : tag == 'H' ? MessageKind.HEARTBEAT :
                        tag == 'M' ? MessageKind.METRIC : MessageKind.TRACE;
                    final String type = readField(false, tree);
                    final int typeSymbol = interner.lastSymbol();
                    final String name = readField(false, tree);
                    final int nameSymbol = interner.lastSymbol();
                    final String status = readField(false, tree);
                    final int i = tree.add(kind, parent, type, name, ts);
                    tree.setSymbols(i, typeSymbol, nameSymbol);
                    tree.setStatus(i, status);
                    readData(tree, i);
                    rootDone = depth == 0;
                    break;
                }
            }
        }
        if (depth > 0)
        {
            throw error(FrameError.UNCLOSED_TRANSACTION, pos, depth + " transaction(s) never closed");
        }
        if (tree.size() == 0)
        {
            throw error(FrameError.EMPTY_TREE, pos, "no message in the tree");
        }
    }

    private void readTransactionEnd(final FlatTree tree, final int i) throws MalformedFrameException
    {
        tree.setStatus(i, readField(false, tree));
        final int at = pos;
        final int fieldEnd = fieldEnd(at);
        if (fieldEnd - at < 3 || buf[fieldEnd - 2] != 'u' || buf[fieldEnd - 1] != 's')
        {
            throw error(FrameError.BAD_TEXT, at, "duration is not <n>us");
        }
        final long micros = parseLong(at, fieldEnd - 2);
        tree.setDurationMicros(i, micros);
        pos = fieldEnd + 1;
        readData(tree, i);
    }

    private long parseLong(final int from, final int to) throws MalformedFrameException
    {
        int p = from;
        final boolean negative = buf[p] == '-';
        if (negative)
        {
            p++;
        }
        if (p == to || to - p > 19)
        {
            throw error(FrameError.BAD_TEXT, from, "duration is not a number");
        }
        long v = 0;
        for (; p < to; p++)
        {
            final int d = buf[p] - '0';
            if (d < 0 || d > 9)
            {
                throw error(FrameError.BAD_TEXT, from, "duration is not a number");
            }
            v = v * 10 - d;
            if (v > 0)
            {
                throw error(FrameError.BAD_TEXT, from, "duration out of range");
            }
        }
        if (!negative)
        {
            if (v == Long.MIN_VALUE)
            {
                throw error(FrameError.BAD_TEXT, from, "duration out of range");
            }
            v = -v;
        }
        return v;
    }

    /** Reads a field (a line's last one if so flagged) and returns it un-escaped and interned. */
    private String readField(final boolean last, final FlatTree tree) throws MalformedFrameException
    {
        final int at = pos;
        final int fieldEnd = last ? lastFieldEnd(at, tree) : fieldEnd(at);
        pos = last ? skipTerminator(fieldEnd) : fieldEnd + 1;
        if (indexOf(at, fieldEnd, (byte)'\\') < 0)
        {
            return interner.intern(buf, at, fieldEnd - at);
        }
        unescape(at, fieldEnd);
        return interner.intern(scratch, 0, scratchLength);
    }

    private void skipField() throws MalformedFrameException
    {
        pos = fieldEnd(pos) + 1;
    }

    private void readData(final FlatTree tree, final int i) throws MalformedFrameException
    {
        final int at = pos;
        final int fieldEnd = lastFieldEnd(at, tree);
        pos = skipTerminator(fieldEnd);
        if (indexOf(at, fieldEnd, (byte)'\\') < 0)
        {
            tree.setData(i, buf, at, fieldEnd - at);
        }
        else
        {
            unescape(at, fieldEnd);
            tree.setData(i, scratch, 0, scratchLength);
        }
    }

    /** The TAB that ends a field which is not the last of its line. */
    private int fieldEnd(final int from) throws MalformedFrameException
    {
        for (int p = from; p < end; p++)
        {
            final byte b = buf[p];
            if (b == '\t')
            {
                return p;
            }
            if (b == '\n')
            {
                throw error(FrameError.BAD_TEXT, from, "line ends before all its fields");
            }
        }
        throw error(FrameError.TRUNCATED, from, "field without a TAB");
    }

    /**
     * The end of a line's last field: the first LF that is followed by a record or by the end of the payload, with
     * the trailing TAB before it not part of the field. Warns when the field holds raw TAB, LF or CR.
     */
    private int lastFieldEnd(final int from, final FlatTree tree) throws MalformedFrameException
    {
        for (int p = from; p < end; p++)
        {
            final byte b = buf[p];
            if (b == '\n' && (p + 1 == end || isRecordStart(p + 1)))
            {
                final int fieldEnd = p > from && buf[p - 1] == '\t' ? p - 1 : p;
                if (indexOfRaw(from, fieldEnd))
                {
                    tree.addWarning("raw TAB/LF inside PT1 data at payload offset " + (from - start) +
                        " (not escaped)");
                }
                return fieldEnd;
            }
        }
        throw error(FrameError.TRUNCATED, from, "line without LF");
    }

    private int skipTerminator(final int fieldEnd)
    {
        return buf[fieldEnd] == '\t' ? fieldEnd + 2 : fieldEnd + 1;
    }

    private boolean indexOfRaw(final int from, final int to)
    {
        for (int p = from; p < to; p++)
        {
            final byte b = buf[p];
            if (b == '\t' || b == '\n' || b == '\r')
            {
                return true;
            }
        }
        return false;
    }

    private boolean isRecordStart(final int p)
    {
        if (end - p < 2 + Pt1Clock.TEXT_LENGTH || !isTag(buf[p]) || buf[p + 1 + Pt1Clock.TEXT_LENGTH] != '\t')
        {
            return false;
        }
        return clock.parse(buf, p + 1) != Pt1Clock.INVALID;
    }

    private static boolean isTag(final byte b)
    {
        return b == 't' || b == 'T' || b == 'A' || b == 'E' || b == 'H' || b == 'M' || b == 'L';
    }

    private int indexOf(final int from, final int to, final byte b)
    {
        for (int p = from; p < to; p++)
        {
            if (buf[p] == b)
            {
                return p;
            }
        }
        return -1;
    }

    /** Undoes the Java encoder's four escapes into {@link #scratch}; any other backslash stays. */
    private void unescape(final int from, final int to)
    {
        if (scratch.length < to - from)
        {
            scratch = new byte[Math.max(to - from, scratch.length * 2)];
        }
        int n = 0;
        for (int p = from; p < to; p++)
        {
            byte b = buf[p];
            if (b == '\\' && p + 1 < to)
            {
                final byte next = buf[p + 1];
                final byte plain = next == 't' ? (byte)'\t' : next == 'r' ? (byte)'\r' : next == 'n' ? (byte)'\n' :
                    next == '\\' ? (byte)'\\' : 0;
                if (plain != 0)
                {
                    b = plain;
                    p++;
                }
            }
            scratch[n++] = b;
        }
        scratchLength = n;
    }

    private MalformedFrameException error(final FrameError e, final int at, final String detail)
    {
        return new MalformedFrameException(e, at - base, detail);
    }
}
