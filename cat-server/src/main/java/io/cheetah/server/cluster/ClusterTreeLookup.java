package io.cheetah.server.cluster;

import io.cheetah.logview.LogviewStore;
import io.cheetah.logview.TreeLookup;

import java.util.ArrayList;
import java.util.List;

/**
 * The logview look-up of a member in cluster mode: this server's store first, then every other live member's at
 * once ({@link PeerClient#tree}), since a tree is stored where it was sent and a domain's trees move to its fallback
 * while its primary is out. Only ids this server's store finds well-formed are asked around.
 */
public final class ClusterTreeLookup implements TreeLookup
{
    private final TreeLookup local;
    private final Membership membership;
    private final PeerClient peers;

    /**
     * @param local      this server's logview store.
     * @param membership the live members.
     * @param peers      asks the other members.
     */
    public ClusterTreeLookup(final TreeLookup local, final Membership membership, final PeerClient peers)
    {
        this.local = local;
        this.membership = membership;
        this.peers = peers;
    }

    @Override
    public LogviewStore.Lookup find(final String messageId)
    {
        final LogviewStore.Lookup own = local.find(messageId);
        final List<Member> others = membership.peers();
        if (own.status() != LogviewStore.Lookup.Status.NOT_FOUND || others.isEmpty())
        {
            return own;
        }
        final List<String> failed = new ArrayList<>();
        final byte[] frame = peers.tree(others, messageId, failed);
        if (frame != null)
        {
            return new LogviewStore.Lookup(LogviewStore.Lookup.Status.FOUND, frame, "");
        }
        return failed.isEmpty() ? own : new LogviewStore.Lookup(LogviewStore.Lookup.Status.NOT_FOUND, null,
            own.reason() + "; members that did not answer: " + String.join(",", failed));
    }
}
