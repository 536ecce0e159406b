package io.cheetah.report;

import io.cheetah.codec.FrameWriter;
import org.agrona.collections.Int2ObjectHashMap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The compact binary form of a {@link DomainReport} (checkpoints, MySQL content, the inter-node API): a version
 * varint, the header, the symbol table once, then the tree with symbols as varints, counts as varints, sums as
 * fixed 8-byte doubles, per-minute cells and sketch cells as varints. The sketch is stored whole, so a decoded
 * report keeps exact mergeable percentiles (unlike CAT, whose fine buckets are never saved, docs/protocol.md §4.7).
 * <pre>
 *  version analyzer domain hourStart nSymbols symbol*
 *  nMachines (ip nTypes (type tally nNames (name tally)*)*)*
 *  tally = total fail sum sum2 min+1 max+1 successId failId longestId
 *          minuteMask (count fails sum min+1 max+1)* nCells (cell count)* nCodes (code count)*
 * </pre>
 * Thread-safe: the only state is each analyzer thread's buffer for {@link #encodeLive}.
 */
public final class TallyCodec
{
    /** The layout version this class writes. */
    public static final int VERSION = 1;

    /** Kept per analyzer thread, as large as its largest encoding of a live report so far. */
    private static final ThreadLocal<FrameWriter> LIVE_WRITER = ThreadLocal.withInitial(() -> new FrameWriter(4096));

    private TallyCodec()
    {
    }

    /**
     * @param r a report.
     * @return its bytes.
     */
    public static byte[] encode(final DomainReport r)
    {
        return encode(r, false, new FrameWriter(4096));
    }

    /**
     * Encodes an analyzer's live report on its own thread, without copying it first: the same bytes as
     * {@link #encode} of its {@link DomainReport#copy()}, with each type's figures made from its names as a copy
     * makes them ({@link TypeTally#figures()}). What a checkpoint saves of the Transaction and Event reports.
     * The bytes are written into a buffer the thread keeps from one checkpoint to the next, so only the result is
     * allocated (a fresh buffer per domain and minute, grown and copied, was the ring threads' share of a round's
     * garbage; BENCHMARKS.md, session 18).
     *
     * @param live     the live report (its analyzer's thread only).
     * @param sizeHint bytes expected (the last encoding's length), so the buffer does not grow by doubling.
     * @return its bytes.
     */
    public static byte[] encodeLive(final DomainReport live, final int sizeHint)
    {
        final int capacity = Math.max(4096, sizeHint + (sizeHint >> 3));
        FrameWriter w = LIVE_WRITER.get();
        if (w.array().length < capacity)
        {
            w = new FrameWriter(capacity);
            LIVE_WRITER.set(w);
        }
        w.reset();
        return encode(live, true, w);
    }

    private static byte[] encode(final DomainReport r, final boolean live, final FrameWriter w)
    {
        w.writeVarLong(VERSION);
        w.writeString(r.analyzer());
        w.writeString(r.domain());
        w.writeVarLong(r.hourStart());
        final SymbolTable s = r.symbols();
        w.writeVarLong(s.size());
        for (int i = 0; i < s.size(); i++)
        {
            w.writeString(s.string(i));
        }
        final Int2ObjectHashMap<MachineTally> machines = r.machines();
        w.writeVarLong(machines.size());
        for (final Int2ObjectHashMap<MachineTally>.EntryIterator it = machines.entrySet().iterator(); it.hasNext(); )
        {
            it.next();
            w.writeVarLong(it.getIntKey());
            final Int2ObjectHashMap<TypeTally> types = it.getValue().types;
            w.writeVarLong(types.size());
            for (final Int2ObjectHashMap<TypeTally>.EntryIterator ti = types.entrySet().iterator(); ti.hasNext(); )
            {
                ti.next();
                w.writeVarLong(ti.getIntKey());
                final TypeTally t = ti.getValue();
                writeTally(w, live ? t.figures() : t);
                w.writeVarLong(t.names.size());
                for (final Int2ObjectHashMap<Tally>.EntryIterator ni = t.names.entrySet().iterator(); ni.hasNext(); )
                {
                    ni.next();
                    w.writeVarLong(ni.getIntKey());
                    writeTally(w, ni.getValue());
                }
            }
        }
        return w.toByteArray();
    }

    /**
     * @param bytes what {@link #encode} wrote.
     * @param expectedAnalyzer the analyzer the caller's format belongs to.
     * @return the report.
     * @throws IOException for an unknown version, another analyzer's report or damaged bytes.
     */
    public static DomainReport decode(final byte[] bytes, final String expectedAnalyzer) throws IOException
    {
        final Reader in = new Reader(bytes);
        try
        {
            final long version = in.varLong();
            if (version != VERSION)
            {
                throw new IOException("unknown " + expectedAnalyzer + " report layout version " + version +
                    " (this build reads version " + VERSION + ")");
            }
            final String analyzer = in.string();
            if (!expectedAnalyzer.equals(analyzer))
            {
                throw new IOException("a " + analyzer + " report given to the " + expectedAnalyzer + " format");
            }
            final DomainReport r = new DomainReport(analyzer, in.string(), in.varLong(), null, null);
            final int nSymbols = in.count();
            final int[] map = new int[nSymbols];
            for (int i = 0; i < nSymbols; i++)
            {
                map[i] = r.symbols().intern(in.string());
            }
            final int nMachines = in.count();
            for (int m = 0; m < nMachines; m++)
            {
                final MachineTally machine = new MachineTally();
                r.machines().put(map[in.symbol(nSymbols)], machine);
                final int nTypes = in.count();
                for (int t = 0; t < nTypes; t++)
                {
                    final TypeTally type = new TypeTally();
                    machine.types.put(map[in.symbol(nSymbols)], type);
                    readTally(in, type, map);
                    final int nNames = in.count();
                    for (int n = 0; n < nNames; n++)
                    {
                        final Tally name = new Tally();
                        type.names.put(map[in.symbol(nSymbols)], name);
                        readTally(in, name, map);
                    }
                }
            }
            if (in.pos != bytes.length)
            {
                throw new IOException("damaged " + expectedAnalyzer + " report: " + (bytes.length - in.pos) +
                    " bytes after the end");
            }
            return r;
        }
        catch (final ArrayIndexOutOfBoundsException | IllegalArgumentException e)
        {
            throw new IOException("damaged " + expectedAnalyzer + " report at byte " + in.pos + ": " + e.getMessage(),
                e);
        }
    }

    private static void writeTally(final FrameWriter w, final Tally t)
    {
        w.writeVarLong(t.totalCount);
        w.writeVarLong(t.failCount);
        writeDouble(w, t.sum);
        writeDouble(w, t.sum2);
        w.writeVarLong(t.min == Tally.NO_MIN ? 0 : t.min + 1);
        w.writeVarLong(t.max + 1);
        w.writeString(t.successId);
        w.writeString(t.failId);
        w.writeString(t.longestId);
        final MinuteSeries ms = t.minutes;
        w.writeVarLong(ms.mask());
        for (long m = ms.mask(); m != 0; m &= m - 1)
        {
            final int minute = Long.numberOfTrailingZeros(m);
            w.writeVarLong(ms.count(minute));
            w.writeVarLong(ms.fails(minute));
            writeDouble(w, ms.sum(minute));
            w.writeVarLong(ms.min(minute) == MinuteSeries.NO_MIN ? 0 : ms.min(minute) + 1);
            w.writeVarLong(ms.max(minute) + 1);
        }
        final DurationSketch sk = t.sketch;
        final int cells = sk == null ? 0 : sk.cells();
        w.writeVarLong(cells);
        for (int i = 0; i < cells; i++)
        {
            w.writeVarLong(sk.cell(i));
            w.writeVarLong(sk.cellCount(i));
        }
        if (t.statusCodes == null)
        {
            w.writeVarLong(0);
        }
        else
        {
            w.writeVarLong(t.statusCodes.size());
            t.statusCodes.forEachKeyValue((k, v) ->
            {
                w.writeVarLong(k);
                w.writeVarLong(v);
            });
        }
    }

    private static void readTally(final Reader in, final Tally t, final int[] map) throws IOException
    {
        t.totalCount = in.varLong();
        t.failCount = in.varLong();
        t.sum = in.dbl();
        t.sum2 = in.dbl();
        final long min = in.varLong();
        t.min = min == 0 ? Tally.NO_MIN : min - 1;
        t.max = in.varLong() - 1;
        t.successId = in.nullableString();
        t.failId = in.nullableString();
        t.longestId = in.nullableString();
        final long mask = in.varLong();
        if ((mask >>> MinuteSeries.MINUTES) != 0)
        {
            throw new IOException("damaged report: minute mask " + Long.toHexString(mask));
        }
        for (long m = mask; m != 0; m &= m - 1)
        {
            final int minute = Long.numberOfTrailingZeros(m);
            final long count = in.varLong();
            final long fails = in.varLong();
            final double sum = in.dbl();
            final long mn = in.varLong();
            final long mx = in.varLong() - 1;
            t.minutes.add(minute, count, fails, sum, mn == 0 ? MinuteSeries.NO_MIN : mn - 1, mx);
        }
        final int cells = in.count();
        if (cells > 0)
        {
            t.sketch = new DurationSketch();
            for (int i = 0; i < cells; i++)
            {
                final long cell = in.varLong();
                final int minute = (int)(cell >>> 11);
                if (minute >= MinuteSeries.MINUTES)
                {
                    throw new IOException("damaged report: sketch minute " + minute);
                }
                t.sketch.addKey(minute, (int)(cell & (DurationBuckets.KEYS - 1)), in.varLong());
            }
        }
        final int codes = in.count();
        if (codes > 0)
        {
            t.statusCodes = new org.eclipse.collections.impl.map.mutable.primitive.IntLongHashMap(codes);
            for (int i = 0; i < codes; i++)
            {
                t.statusCodes.addToValue(map[in.symbol(map.length)], in.varLong());
            }
        }
    }

    private static void writeDouble(final FrameWriter w, final double d)
    {
        final long v = Double.doubleToRawLongBits(d);
        for (int shift = 56; shift >= 0; shift -= 8)
        {
            w.writeByte((int)(v >>> shift));
        }
    }

    /** Cursor over encoded bytes; bounds errors surface as exceptions the caller turns into IOException. */
    private static final class Reader
    {
        private final byte[] b;
        private int pos;

        Reader(final byte[] b)
        {
            this.b = b;
        }

        long varLong() throws IOException
        {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7)
            {
                final byte x = b[pos++];
                v |= (long)(x & 0x7F) << shift;
                if (x >= 0)
                {
                    return v;
                }
            }
            throw new IOException("damaged report: varint longer than 10 bytes at byte " + pos);
        }

        int count() throws IOException
        {
            final long v = varLong();
            if (v < 0 || v > b.length)
            {
                throw new IOException("damaged report: count " + v + " at byte " + pos);
            }
            return (int)v;
        }

        int symbol(final int symbols) throws IOException
        {
            final long v = varLong();
            if (v < 0 || v >= symbols)
            {
                throw new IOException("damaged report: symbol " + v + " of " + symbols);
            }
            return (int)v;
        }

        double dbl()
        {
            long v = 0;
            for (int i = 0; i < 8; i++)
            {
                v = (v << 8) | (b[pos++] & 0xFF);
            }
            return Double.longBitsToDouble(v);
        }

        String string() throws IOException
        {
            final int n = count();
            if (pos + n > b.length)
            {
                throw new IOException("damaged report: string of " + n + " bytes at byte " + pos);
            }
            final String s = new String(b, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }

        String nullableString() throws IOException
        {
            final String s = string();
            return s.isEmpty() ? null : s;
        }
    }
}
