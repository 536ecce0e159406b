package io.cheetah.server.ingest;

import io.cheetah.message.FlatTree;

/**
 * Where a server that analyses nothing itself sends its trees: each decoded tree goes to the outlet instead of the
 * rings and the tree journal (an edge of the Kafka mode, issue 52, produces it to a topic). Set with
 * {@code CheetahServer.Builder.outlet}; called by {@link IngestWorker} on the ingest thread that decoded the tree,
 * after the PT1 correction and the wide-connection marking, so an outlet must never block: a slow destination
 * stops the sockets through a {@link ReadGate} instead.
 */
public interface TreeOutlet
{
    /**
     * Takes one tree. The tree goes back to its pool as soon as this returns: an outlet copies what it keeps.
     *
     * @param tree          the decoded tree; {@link FlatTree#frame()} and {@link FlatTree#frameLength()} are the
     *                      exact bytes received, length prefix included; {@link FlatTree#wideSource()} is set when
     *                      its connection is wide.
     * @param arrivalMillis when the ingest handed it on (the server's clock), as the journal would record it.
     * @param appliedHours  the PT1 offset its timestamps were moved by, whole hours (0 for NT1, NM1, or none).
     */
    void accept(FlatTree tree, long arrivalMillis, int appliedHours);
}
