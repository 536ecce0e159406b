package io.cheetah.logview;

/**
 * Finds a stored tree by message id for the logview pages ({@link LogviewHandler}, {@link ModelLogviewHandler}):
 * this server's {@link LogviewStore}, or in a cluster the store of whichever member holds the tree.
 */
@FunctionalInterface
public interface TreeLookup
{
    /**
     * @param messageId a CAT message id, as the client sent it.
     * @return the outcome: the frame when found.
     */
    LogviewStore.Lookup find(String messageId);
}
