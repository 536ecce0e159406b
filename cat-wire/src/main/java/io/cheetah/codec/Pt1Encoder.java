package io.cheetah.codec;

import io.cheetah.message.Message;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;

import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Encodes an object-model {@link MessageTree} as one PT1 frame (docs/protocol.md §1.4), as CAT's Java encoder does:
 * a TAB-separated header line (an empty field written as {@code null}), {@code t}/{@code T} lines around a
 * transaction's children, an {@code A} line for a transaction without children, a trailing TAB after every record
 * field, timestamps as {@code yyyy-MM-dd HH:mm:ss.SSS} in one zone (GMT+8 unless told otherwise), durations as
 * {@code <n>us}, and TAB, CR, LF and backslash escaped in type, name, status and data.
 * <p>
 * What PT1 cannot carry: header fields are not escaped, so they must hold no TAB, CR or LF, and a header field
 * that is the text {@code null} reads back as {@code ""}; timestamps must fall in years 0000-9999 in the zone
 * (others throw {@link IllegalArgumentException}). Used by tests and the replay tool. Iterative; one instance per
 * thread.
 */
public final class Pt1Encoder
{
    private final ArrayDeque<Object> work = new ArrayDeque<>();
    private final Pt1Clock clock;

    /**
     * @param zone the zone timestamps are written in.
     */
    public Pt1Encoder(final ZoneId zone)
    {
        this.clock = new Pt1Clock(zone);
    }

    /**
     * An encoder writing GMT+8, as CAT's Java client does.
     */
    public Pt1Encoder()
    {
        this(Pt1Decoder.DEFAULT_ZONE);
    }

    /**
     * Convenience for tests and tools.
     *
     * @param tree a tree.
     * @return its PT1 frame (GMT+8) as a new array.
     */
    public static byte[] encode(final MessageTree tree)
    {
        final FrameWriter out = new FrameWriter(1024);
        new Pt1Encoder().encode(tree, out);
        return out.toByteArray();
    }

    /**
     * Appends one frame for the tree to the writer.
     *
     * @param tree a tree with a root message.
     * @param out  where the frame is appended.
     * @return the frame's length, prefix included.
     */
    public int encode(final MessageTree tree, final FrameWriter out)
    {
        out.beginFrame();
        try
        {
            out.writeAscii("PT1");
            header(tree.domain(), out);
            header(tree.hostname(), out);
            header(tree.ipAddress(), out);
            header(tree.threadGroupName(), out);
            header(tree.threadId(), out);
            header(tree.threadName(), out);
            header(tree.messageId(), out);
            header(tree.parentMessageId(), out);
            header(tree.rootMessageId(), out);
            header(tree.sessionToken(), out);
            out.writeByte('\n');
            if (tree.root() != null)
            {
                writeMessages(tree.root(), out);
            }
        }
        catch (final RuntimeException e)
        {
            out.abandonFrame();
            throw e;
        }
        return out.endFrame();
    }

    private static void header(final String field, final FrameWriter out)
    {
        out.writeByte('\t');
        out.writeUtf8(field.isEmpty() ? "null" : field);
    }

    private void writeMessages(final Message root, final FrameWriter out)
    {
        work.clear();
        writeBegin(root, out);
        pushIfParent(root);
        while (!work.isEmpty())
        {
            @SuppressWarnings("unchecked")
            final Iterator<Message> children = (Iterator<Message>)work.peek();
            if (children.hasNext())
            {
                final Message child = children.next();
                writeBegin(child, out);
                pushIfParent(child);
            }
            else
            {
                work.pop();
                final TransactionMessage t = (TransactionMessage)work.pop();
                writeEnd('T', t, endTime(t), out);
            }
        }
    }

    private void pushIfParent(final Message m)
    {
        if (m instanceof TransactionMessage && !((TransactionMessage)m).children().isEmpty())
        {
            work.push(m);
            work.push(((TransactionMessage)m).children().iterator());
        }
    }

    private void writeBegin(final Message m, final FrameWriter out)
    {
        if (m instanceof TransactionMessage)
        {
            final TransactionMessage t = (TransactionMessage)m;
            if (t.children().isEmpty())
            {
                writeEnd('A', t, t.timestampMillis(), out);
                return;
            }
            stamp('t', t.timestampMillis(), out);
            field(t.type(), out);
            field(t.name(), out);
            out.writeByte('\n');
            return;
        }
        stamp(m.kind().tag(), m.timestampMillis(), out);
        field(m.type(), out);
        field(m.name(), out);
        field(m.status(), out);
        field(m.data(), out);
        out.writeByte('\n');
    }

    private void writeEnd(final char tag, final TransactionMessage t, final long timestamp, final FrameWriter out)
    {
        stamp(tag, timestamp, out);
        field(t.type(), out);
        field(t.name(), out);
        field(t.status(), out);
        out.writeAscii(Long.toString(t.durationMicros()));
        out.writeAscii("us\t");
        field(t.data(), out);
        out.writeByte('\n');
    }

    /** The end time a T line carries (start + duration); readers ignore it, so out-of-range sums fall back. */
    private long endTime(final TransactionMessage t)
    {
        final long start = t.timestampMillis();
        final long endTime = start + t.durationMicros() / 1000;
        final boolean overflow = ((start ^ endTime) & (t.durationMicros() ^ endTime)) < 0;
        return !overflow && clock.canFormat(endTime) ? endTime : start;
    }

    private void stamp(final char tag, final long timestamp, final FrameWriter out)
    {
        if (!clock.canFormat(timestamp))
        {
            throw new IllegalArgumentException("timestamp " + timestamp + " has no four-digit year in " +
                clock.zone());
        }
        out.writeByte(tag);
        clock.format(timestamp, out);
        out.writeByte('\t');
    }

    /** Writes a field escaped the Java way, then its TAB. */
    private static void field(final String s, final FrameWriter out)
    {
        if (needsEscape(s))
        {
            final StringBuilder sb = new StringBuilder(s.length() + 8);
            for (int i = 0; i < s.length(); i++)
            {
                final char c = s.charAt(i);
                switch (c)
                {
                    case '\t':
                        sb.append("\\t");
                        break;
                    case '\r':
                        sb.append("\\r");
                        break;
                    case '\n':
                        sb.append("\\n");
                        break;
                    case '\\':
                        sb.append("\\\\");
                        break;
                    default:
                        sb.append(c);
                        break;
                }
            }
            out.writeUtf8(sb.toString());
        }
        else
        {
            out.writeUtf8(s);
        }
        out.writeByte('\t');
    }

    private static boolean needsEscape(final String s)
    {
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            if (c == '\t' || c == '\r' || c == '\n' || c == '\\')
            {
                return true;
            }
        }
        return false;
    }
}
