package io.cheetah.server.storage;

import io.cheetah.analysis.EncodedReport;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The bytes storage keeps for one report, in MySQL content columns and in local files: a small header around the
 * analyzer's own versioned encoding ({@link ReportFormat#encode}), compressed with LZ4. Used by checkpoints, the
 * pending spool, hourly rows and roll-ups. Thread-safe (each thread keeps its own compression scratch).
 * <pre>
 *  0  4  magic "CHRE"
 *  4  1  envelope version (1)
 *  5  1  analyzer name length n, then n bytes UTF-8
 *  .  4  report format version (ReportFormat.version())
 *  .  1  compression: 0 none, 1 LZ4 block
 *  .  4  uncompressed length
 *  .  4  CRC32 of the uncompressed bytes
 *  .  *  payload
 * </pre>
 */
public final class ReportEnvelope
{
    /**
     * Envelope layout version this code writes and reads.
     */
    public static final int VERSION = 1;

    private static final int MAGIC = 0x43485245; // "CHRE"
    private static final int NONE = 0;
    private static final int LZ4 = 1;
    private static final int MAX_REPORT = 512 * 1024 * 1024;
    /** Largest compression scratch a thread keeps; a larger report gets one of its own. */
    private static final int KEPT_BYTES = 8 * 1024 * 1024;
    /** Each storage thread compresses into the same array: one per report was ~30 % of that thread's garbage. */
    private static final ThreadLocal<byte[]> PACKED = ThreadLocal.withInitial(() -> new byte[64 * 1024]);
    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    /** Bounds-checking: an envelope comes from MySQL, which other cluster members write too. */
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();

    private ReportEnvelope()
    {
    }

    /**
     * @param format the report's format.
     * @param report the report.
     * @return the envelope bytes.
     */
    public static byte[] encode(final ReportFormat format, final Report report)
    {
        // a checkpoint of a large report arrives encoded by its analyzer's thread (Analyzer.checkpoint)
        final byte[] raw = report instanceof EncodedReport encoded ? encoded.bytes() : format.encode(report);
        final byte[] name = report.analyzer().getBytes(StandardCharsets.UTF_8);
        if (name.length > 255)
        {
            throw new IllegalArgumentException("analyzer name longer than 255 bytes: " + report.analyzer());
        }
        final int bound = COMPRESSOR.maxCompressedLength(raw.length);
        byte[] packed = PACKED.get();
        if (packed.length < bound)
        {
            packed = new byte[bound];
            if (bound <= KEPT_BYTES)
            {
                PACKED.set(packed);
            }
        }
        final int packedLength = COMPRESSOR.compress(raw, 0, raw.length, packed, 0, packed.length);
        final boolean compress = packedLength < raw.length;
        final int payload = compress ? packedLength : raw.length;
        final ByteBuffer out = ByteBuffer.allocate(4 + 1 + 1 + name.length + 4 + 1 + 4 + 4 + payload);
        out.putInt(MAGIC).put((byte)VERSION).put((byte)name.length).put(name).putInt(format.version())
            .put((byte)(compress ? LZ4 : NONE)).putInt(raw.length).putInt(crc(raw, raw.length));
        out.put(compress ? packed : raw, 0, payload);
        return out.array();
    }

    /**
     * @param bytes envelope bytes.
     * @return the analyzer name in the header.
     * @throws IOException when the bytes are no envelope of a known version.
     */
    public static String analyzer(final byte[] bytes) throws IOException
    {
        final ByteBuffer in = header(bytes);
        final byte[] name = new byte[in.get() & 0xFF];
        in.get(name);
        return new String(name, StandardCharsets.UTF_8);
    }

    /**
     * @param formats report formats by analyzer name.
     * @param bytes   envelope bytes.
     * @return the report.
     * @throws IOException for an unknown envelope or format version, an unknown analyzer, or damaged bytes.
     */
    public static Report decode(final Map<String, ReportFormat> formats, final byte[] bytes) throws IOException
    {
        try
        {
            final ByteBuffer in = header(bytes);
            final byte[] nameBytes = new byte[in.get() & 0xFF];
            in.get(nameBytes);
            final String analyzer = new String(nameBytes, StandardCharsets.UTF_8);
            final ReportFormat format = formats.get(analyzer);
            if (format == null)
            {
                throw new IOException("report envelope of unknown analyzer '" + analyzer + "'");
            }
            final int formatVersion = in.getInt();
            if (formatVersion != format.version())
            {
                throw new IOException("report of analyzer '" + analyzer + "' has format version " + formatVersion +
                    ", this server reads version " + format.version());
            }
            final int compression = in.get();
            final int length = in.getInt();
            final int crc = in.getInt();
            if (length < 0 || length > MAX_REPORT)
            {
                throw new IOException("report envelope claims " + length + " bytes");
            }
            final byte[] raw;
            if (compression == NONE)
            {
                raw = new byte[length];
                in.get(raw);
            }
            else if (compression == LZ4)
            {
                raw = new byte[length];
                final int written = DECOMPRESSOR.decompress(bytes, in.position(), bytes.length - in.position(), raw,
                    0, length);
                if (written != length)
                {
                    throw new IOException("report envelope has trailing or missing bytes");
                }
            }
            else
            {
                throw new IOException("report envelope uses unknown compression " + compression);
            }
            if (crc(raw, length) != crc)
            {
                throw new IOException("report envelope checksum mismatch (damaged bytes)");
            }
            return format.decode(raw);
        }
        catch (final java.nio.BufferUnderflowException | LZ4Exception e)
        {
            throw new IOException("report envelope is truncated or damaged", e);
        }
    }

    private static ByteBuffer header(final byte[] bytes) throws IOException
    {
        if (bytes.length < 6)
        {
            throw new IOException("report envelope too short: " + bytes.length + " bytes");
        }
        final ByteBuffer in = ByteBuffer.wrap(bytes);
        if (in.getInt() != MAGIC)
        {
            throw new IOException("not a report envelope (bad magic)");
        }
        final int version = in.get() & 0xFF;
        if (version != VERSION)
        {
            throw new IOException("report envelope version " + version + " is unknown; this server reads version " +
                VERSION);
        }
        return in;
    }

    private static int crc(final byte[] bytes, final int length)
    {
        final java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(bytes, 0, length);
        return (int)crc.getValue();
    }
}
