package io.cheetah.client.transport;

import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.message.Message;
import io.cheetah.message.MessageKind;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;

/**
 * An object-model {@link MessageTree} on its way out: the client's own heartbeat and reboot trees and the aggregated
 * trees of {@link SampleFolder}, a few a minute, where allocation does not matter. Application trees take the pooled
 * flat form instead.
 */
final class ModelTree implements OutboundTree
{
    private final MessageTree tree;
    private final Nt1Encoder encoder;

    /**
     * @param tree    a complete tree.
     * @param encoder the sender thread's encoder (used only on that thread).
     */
    ModelTree(final MessageTree tree, final Nt1Encoder encoder)
    {
        this.tree = tree;
        this.encoder = encoder;
    }

    @Override
    public void encode(final FrameWriter out, final MessageIds ids)
    {
        if (tree.messageId().isEmpty())
        {
            tree.messageId(ids.next());
        }
        encoder.encode(tree, out);
    }

    @Override
    public void foldInto(final SampledCounts counts)
    {
        if (tree.root() != null)
        {
            fold(tree.root(), counts);
        }
    }

    private static void fold(final Message m, final SampledCounts counts)
    {
        if (m.kind() == MessageKind.TRANSACTION)
        {
            final TransactionMessage t = (TransactionMessage)m;
            counts.transaction(t.type(), t.name(), t.isSuccess(), t.durationMicros());
            for (final Message child : t.children())
            {
                fold(child, counts);
            }
        }
        else if (m.kind() == MessageKind.EVENT)
        {
            counts.event(m.type(), m.name(), m.isSuccess());
        }
    }

    @Override
    public void release()
    {
        // garbage collected; nothing pooled
    }

    /**
     * @return the wrapped tree.
     */
    MessageTree tree()
    {
        return tree;
    }
}
