package io.cheetah.server.dispatch;

/**
 * A ring slot: either a tree with the mask of analyzers admitted to it and its hour, or a {@link Control}
 * request. Pre-allocated by the ring and overwritten by each publisher.
 */
final class TreeEvent
{
    PooledTree tree;
    long mask;
    long hour;
    int refused;
    /** The journal the tree was written to, or -1 (not journaled). */
    int journal;
    /** Its sequence in that journal. */
    long sequence;
    /** When the tree was dispatched (epoch ms; for a replayed tree, when it first arrived): for {@link CountDelay}. */
    long arrivalMillis;
    Control control;
}
