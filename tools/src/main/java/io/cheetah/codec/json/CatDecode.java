package io.cheetah.codec.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.FrameReader;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.Pt1Decoder;
import io.cheetah.codec.StreamDecoder;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.message.FlatTree;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;

/**
 * The decode tool ({@code scripts/cat-decode}): reads a captured CAT stream (4-byte big-endian length + payload per
 * frame, as a client writes to its socket) and prints one JSON object per frame, as {@link TreeJsonWriter} defines:
 * a tree, a metric bag or an error object. A bad frame is printed as an error and decoding goes on with the next
 * frame; an implausible length prefix or a frame cut off by the end of the file ends the output with an error.
 * <pre>
 *   cat-decode [--zone ZONE] [--max-frame-bytes N] FILE|-
 * </pre>
 * Exit status: 0 when every frame decoded, 1 when some were bad, 2 on a usage or I/O error.
 */
public final class CatDecode
{
    private CatDecode()
    {
    }

    /**
     * @param args command line.
     */
    public static void main(final String[] args)
    {
        ZoneId zone = Pt1Decoder.DEFAULT_ZONE;
        int maxFrameBytes = DecodeLimits.DEFAULT.maxFrameBytes();
        String file = null;
        try
        {
            for (int k = 0; k < args.length; k++)
            {
                switch (args[k])
                {
                    case "--zone":
                        zone = ZoneId.of(args[++k]);
                        break;
                    case "--max-frame-bytes":
                        maxFrameBytes = Integer.parseInt(args[++k]);
                        break;
                    case "-h":
                    case "--help":
                        usage();
                        return;
                    default:
                        file = args[k];
                        break;
                }
            }
        }
        catch (final RuntimeException e)
        {
            System.err.println("cat-decode: bad argument: " + e.getMessage());
            usage();
            System.exit(2);
        }
        if (file == null)
        {
            usage();
            System.exit(2);
        }
        try (InputStream in = "-".equals(file) ? System.in : Files.newInputStream(Path.of(file)))
        {
            final OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
            final long bad = decode(in, out, zone, maxFrameBytes);
            out.flush();
            System.exit(bad == 0 ? 0 : 1);
        }
        catch (final IOException | UncheckedIOException e)
        {
            System.err.println("cat-decode: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Decodes a whole stream to JSON lines.
     *
     * @param in            the captured stream.
     * @param out           where JSON lines go (not closed).
     * @param zone          the zone of PT1 timestamps.
     * @param maxFrameBytes the frame-size cap.
     * @return how many frames were bad.
     * @throws IOException reading or writing.
     */
    public static long decode(final InputStream in, final OutputStream out, final ZoneId zone,
        final int maxFrameBytes) throws IOException
    {
        final TreeJsonWriter writer = new TreeJsonWriter();
        final JsonGenerator g = TreeJsonWriter.factory().createGenerator(out);
        final StreamDecoder.Listener listener = new StreamDecoder.Listener()
        {
            @Override
            public void onTree(final FlatTree tree, final long streamOffset)
            {
                try
                {
                    writer.write(tree, g);
                    g.writeRaw('\n');
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public void onError(final MalformedFrameException error, final long streamOffset)
            {
                try
                {
                    writer.writeError(error, streamOffset, g);
                    g.writeRaw('\n');
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(e);
                }
            }
        };
        final DecodeLimits limits = new DecodeLimits(maxFrameBytes, DecodeLimits.DEFAULT.maxDepth(),
            DecodeLimits.DEFAULT.maxMessages());
        final StreamDecoder stream = new StreamDecoder(new TreeDecoder(limits, new Utf8Interner(), zone),
            new FrameReader(maxFrameBytes), listener);
        final byte[] chunk = new byte[1 << 16];
        int n;
        boolean usable = true;
        while (usable && (n = in.read(chunk)) > 0)
        {
            usable = stream.feed(chunk, 0, n);
        }
        if (usable)
        {
            stream.finish();
        }
        g.flush();
        return stream.badFrames();
    }

    private static void usage()
    {
        System.err.println("usage: cat-decode [--zone ZONE (default GMT+8, for PT1)] [--max-frame-bytes N] FILE|-");
        System.err.println(
            "prints one JSON object per frame: a tree, a metric bag or {\"error\",\"offset\",\"detail\"}");
    }
}
