package io.cheetah.client.transport;

import io.cheetah.codec.FrameWriter;

/**
 * A completed tree on its way to the server, in whatever form its producer keeps it: the application threads' pooled
 * flat trees, or object-model trees (the client's heartbeat and reboot, the aggregates of sampled-out trees). The
 * {@link Sender} takes it in {@link Sender#submit(OutboundTree, boolean)}, encodes it on its own thread (or folds it
 * when the router's sample leaves it out) and hands it back with {@link #release()} once done with it.
 */
public interface OutboundTree
{
    /**
     * Appends this tree's NT1 frame, length prefix included (sender thread).
     *
     * @param out where the frame goes.
     * @param ids mints a message id when the tree has none yet.
     */
    void encode(FrameWriter out, MessageIds ids);

    /**
     * Adds the tree's transactions and events, at any depth, to the counts of sampled-out trees (the submitting
     * thread).
     *
     * @param counts the aggregates the sender flushes as CAT's aggregated trees.
     */
    void foldInto(SampledCounts counts);

    /**
     * The sender is done with the tree (sent, failed or discarded at close): its producer may reuse it. Called once,
     * on the sender thread (or by {@link Sender#close} once that thread has ended), never for a tree that
     * {@link Sender#submit(OutboundTree, boolean)} refused.
     */
    void release();
}
