package io.cheetah.codec.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.cheetah.codec.FrameError;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * Writes a decoded {@link FlatTree} as one JSON object in the schema of the team's wire vectors
 * ({@code vectors/README.md}, one object per frame in a {@code .jsonl} file), and bad frames as error objects.
 * Used by the decode tool ({@code scripts/cat-decode}) and by the logview store for {@code ?forceDownload=json}.
 * <p>
 * A tree (NT1, PT1):
 * <pre>
 * {"codec": "NT1" | "PT1",
 *  "header": {"domain", "hostname", "ip", "threadGroupName", "threadId", "threadName",
 *             "messageId", "parentMessageId", "rootMessageId", "sessionToken"},
 *  "message": {"kind": "transaction" | "event" | "heartbeat" | "metric" | "trace",
 *              "type", "name", "status", "data", "timestamp" (epoch ms),
 *              "durationMicros", "children": [...]   (transactions only, in wire order)},
 *  "warnings": ["..."]                               (only when the decoder recovered from something)}
 * </pre>
 * A metric bag (NM1 / NB1):
 * <pre>
 * {"codec": "NB1" | "NM1", "domain", "hostname", "ip",
 *  "metrics": [{"timestamp", "name", "kind": "COUNT" | "SUM" | "DURATION", "count", "sum" (double), "durationMs"}]}
 * </pre>
 * A bad frame:
 * <pre>
 * {"error": "&lt;FrameError label, e.g. varint_too_long&gt;",
 *  "offset": &lt;byte offset in the stream where decoding stopped: frame start + offset inside the frame&gt;,
 *  "detail": "&lt;human-readable reason&gt;"}
 * </pre>
 * Trees are walked through their parent/child/sibling links, never recursively, and the generators made by
 * {@link #factory()} have no nesting-depth limit, so a tree of any depth is written. Stateless and thread-safe.
 */
public final class TreeJsonWriter
{
    private static final JsonFactory FACTORY = new JsonFactoryBuilder()
        .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(Integer.MAX_VALUE).build())
        .rootValueSeparator((String)null)
        .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
        .build();

    /**
     * @return a JSON factory whose generators accept any nesting depth, put nothing between root values (write
     * your own newline for JSON lines) and do not close the stream they write to; create generators from it for
     * {@link #write(FlatTree, JsonGenerator)}.
     */
    public static JsonFactory factory()
    {
        return FACTORY;
    }

    /**
     * Writes one tree or metric bag as a JSON object.
     *
     * @param tree a successfully decoded tree.
     * @param g    where to write; it must allow deep nesting for deep trees (see {@link #factory()}).
     * @throws IOException from the generator.
     */
    public void write(final FlatTree tree, final JsonGenerator g) throws IOException
    {
        if (tree.codec() == FlatTree.CODEC_NM1)
        {
            writeBag(tree, g);
            return;
        }
        g.writeStartObject();
        g.writeStringField("codec", codecId(tree));
        g.writeObjectFieldStart("header");
        g.writeStringField("domain", tree.domain());
        g.writeStringField("hostname", tree.hostname());
        g.writeStringField("ip", tree.ip());
        g.writeStringField("threadGroupName", tree.threadGroupName());
        g.writeStringField("threadId", tree.threadId());
        g.writeStringField("threadName", tree.threadName());
        g.writeStringField("messageId", tree.messageId());
        g.writeStringField("parentMessageId", tree.parentMessageId());
        g.writeStringField("rootMessageId", tree.rootMessageId());
        g.writeStringField("sessionToken", tree.sessionToken());
        g.writeEndObject();
        if (tree.size() > 0)
        {
            g.writeFieldName("message");
            writeMessages(tree, g);
        }
        if (tree.warningCount() > 0)
        {
            g.writeArrayFieldStart("warnings");
            for (int k = 0; k < tree.warningCount(); k++)
            {
                g.writeString(tree.warning(k));
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    /**
     * Writes the error object for a bad frame.
     *
     * @param error        why the frame was rejected.
     * @param streamOffset where the frame starts in the stream.
     * @param g            where to write.
     * @throws IOException from the generator.
     */
    public void writeError(final MalformedFrameException error, final long streamOffset, final JsonGenerator g)
        throws IOException
    {
        writeError(error.error(), streamOffset + Math.max(0, error.offset()), error.detail(), g);
    }

    /**
     * Writes an error object.
     *
     * @param error  the reason.
     * @param offset byte offset in the stream.
     * @param detail human-readable detail.
     * @param g      where to write.
     * @throws IOException from the generator.
     */
    public void writeError(final FrameError error, final long offset, final String detail, final JsonGenerator g)
        throws IOException
    {
        g.writeStartObject();
        g.writeStringField("error", error.label());
        g.writeNumberField("offset", offset);
        g.writeStringField("detail", detail);
        g.writeEndObject();
    }

    /**
     * Convenience for tools and tests.
     *
     * @param tree a decoded tree.
     * @return its JSON object as text.
     */
    public String toJson(final FlatTree tree)
    {
        final StringWriter out = new StringWriter(1024);
        try (JsonGenerator g = FACTORY.createGenerator(out))
        {
            write(tree, g);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void writeMessages(final FlatTree tree, final JsonGenerator g) throws IOException
    {
        int i = 0;
        while (true)
        {
            writeMessageStart(tree, i, g);
            if (tree.isTransaction(i) && tree.firstChild(i) != FlatTree.NONE)
            {
                i = tree.firstChild(i);
                continue;
            }
            writeMessageEnd(tree, i, g);
            // climb until a message has a next sibling, closing each finished transaction on the way
            while (true)
            {
                if (tree.parent(i) == FlatTree.NONE)
                {
                    return;
                }
                final int next = tree.nextSibling(i);
                if (next != FlatTree.NONE)
                {
                    i = next;
                    break;
                }
                i = tree.parent(i);
                writeMessageEnd(tree, i, g);
            }
        }
    }

    private static void writeMessageStart(final FlatTree tree, final int i, final JsonGenerator g)
        throws IOException
    {
        g.writeStartObject();
        g.writeStringField("kind", kindName(tree.kind(i)));
        g.writeStringField("type", tree.type(i));
        g.writeStringField("name", tree.name(i));
        g.writeStringField("status", tree.status(i));
        g.writeStringField("data", tree.data(i));
        g.writeNumberField("timestamp", tree.timestamp(i));
        if (tree.isTransaction(i))
        {
            g.writeNumberField("durationMicros", tree.durationMicros(i));
            g.writeArrayFieldStart("children");
        }
    }

    private static void writeMessageEnd(final FlatTree tree, final int i, final JsonGenerator g)
        throws IOException
    {
        if (tree.isTransaction(i))
        {
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static void writeBag(final FlatTree tree, final JsonGenerator g) throws IOException
    {
        g.writeStartObject();
        g.writeStringField("codec", codecId(tree));
        g.writeStringField("domain", tree.domain());
        g.writeStringField("hostname", tree.hostname());
        g.writeStringField("ip", tree.ip());
        g.writeArrayFieldStart("metrics");
        for (int i = 0; i < tree.size(); i++)
        {
            g.writeStartObject();
            g.writeNumberField("timestamp", tree.timestamp(i));
            g.writeStringField("name", tree.name(i));
            g.writeStringField("kind", tree.status(i));
            g.writeNumberField("count", tree.bagCount(i));
            g.writeNumberField("sum", tree.bagSum(i));
            g.writeNumberField("durationMs", tree.durationMicros(i) / 1000);
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** The id as on the wire when the tree kept its frame (NB1 and NM1 share a codec), else the codec's name. */
    private static String codecId(final FlatTree tree)
    {
        final byte[] frame = tree.frame();
        if (tree.frameLength() >= 7)
        {
            final char c1 = (char)frame[5];
            if (tree.codec() == FlatTree.CODEC_NM1)
            {
                return c1 == 'B' ? "NB1" : "NM1";
            }
        }
        switch (tree.codec())
        {
            case FlatTree.CODEC_NT1:
                return "NT1";
            case FlatTree.CODEC_PT1:
                return "PT1";
            default:
                return "NM1";
        }
    }

    private static String kindName(final MessageKind kind)
    {
        switch (kind)
        {
            case TRANSACTION:
                return "transaction";
            case EVENT:
                return "event";
            case HEARTBEAT:
                return "heartbeat";
            case METRIC:
                return "metric";
            default:
                return kind.name().toLowerCase(Locale.ROOT);
        }
    }
}
