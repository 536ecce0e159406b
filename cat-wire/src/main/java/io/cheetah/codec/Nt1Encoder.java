package io.cheetah.codec;

import io.cheetah.message.Message;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Encodes an object-model {@link MessageTree} as one NT1 frame (docs/protocol.md §1.3), length prefix included.
 * Iterative, so any depth encodes without a deep stack. Used by the client SDK's sender, the replay tool's
 * generator and tests. Stateless apart from a reusable work stack: one instance per thread.
 */
public final class Nt1Encoder
{
    private final ArrayDeque<Object> work = new ArrayDeque<>();

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
        out.writeAscii("NT1");
        out.writeString(tree.domain());
        out.writeString(tree.hostname());
        out.writeString(tree.ipAddress());
        out.writeString(tree.threadGroupName());
        out.writeString(tree.threadId());
        out.writeString(tree.threadName());
        out.writeString(tree.messageId());
        out.writeString(tree.parentMessageId());
        out.writeString(tree.rootMessageId());
        out.writeString(tree.sessionToken());
        if (tree.root() != null)
        {
            writeMessages(tree.root(), out);
        }
        return out.endFrame();
    }

    /**
     * Convenience for tests and tools.
     *
     * @param tree a tree.
     * @return its NT1 frame as a new array.
     */
    public static byte[] encode(final MessageTree tree)
    {
        final FrameWriter out = new FrameWriter(1024);
        new Nt1Encoder().encode(tree, out);
        return out.toByteArray();
    }

    private void writeMessages(final Message root, final FrameWriter out)
    {
        work.clear();
        writeBegin(root, out);
        if (root instanceof TransactionMessage)
        {
            work.push(root);
            work.push(((TransactionMessage)root).children().iterator());
        }
        while (!work.isEmpty())
        {
            @SuppressWarnings("unchecked")
            final Iterator<Message> children = (Iterator<Message>)work.peek();
            if (children.hasNext())
            {
                final Message child = children.next();
                writeBegin(child, out);
                if (child instanceof TransactionMessage)
                {
                    work.push(child);
                    work.push(((TransactionMessage)child).children().iterator());
                }
            }
            else
            {
                work.pop();
                writeEnd((TransactionMessage)work.pop(), out);
            }
        }
    }

    private static void writeBegin(final Message m, final FrameWriter out)
    {
        if (m instanceof TransactionMessage)
        {
            out.writeByte('t');
            out.writeVarLong(m.timestampMillis());
            out.writeString(m.type());
            out.writeString(m.name());
        }
        else
        {
            out.writeByte(m.kind().tag());
            out.writeVarLong(m.timestampMillis());
            out.writeString(m.type());
            out.writeString(m.name());
            out.writeString(m.status());
            out.writeString(m.data());
        }
    }

    private static void writeEnd(final TransactionMessage t, final FrameWriter out)
    {
        out.writeByte('T');
        out.writeString(t.status());
        out.writeString(t.data());
        out.writeVarLong(t.durationMicros());
    }
}
