package io.cheetah.analysis;

import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

/**
 * Builds small {@link FlatTree}s by hand for analyzer tests: {@code tx}/{@code event} append a message under the
 * given parent and return its index.
 */
public final class TreeBuilder
{
    /** 2026-11-22 03:00:00 UTC, the vectors' hour. */
    public static final long HOUR = 1_795_316_400_000L;

    private final FlatTree tree = new FlatTree();

    /**
     * @param domain domain.
     * @param ip     header ip.
     * @param id     message id.
     */
    public TreeBuilder(final String domain, final String ip, final String id)
    {
        tree.setHeader(FlatTree.CODEC_NT1, domain, "host", ip, "", "", "", "", "", "");
        tree.setMessageId(id);
    }

    public int tx(final int parent, final String type, final String name, final String status, final long ts,
        final long micros, final String data)
    {
        final int i = tree.add(MessageKind.TRANSACTION, parent, type, name, ts);
        tree.setStatus(i, status);
        tree.setDurationMicros(i, micros);
        tree.setData(i, data);
        return i;
    }

    public int event(final int parent, final String type, final String name, final String status, final long ts,
        final String data)
    {
        final int i = tree.add(MessageKind.EVENT, parent, type, name, ts);
        tree.setStatus(i, status);
        tree.setData(i, data);
        return i;
    }

    public int metric(final int parent, final String name, final String status, final long ts, final String data)
    {
        final int i = tree.add(MessageKind.METRIC, parent, "", name, ts);
        tree.setStatus(i, status);
        tree.setData(i, data);
        return i;
    }

    public FlatTree tree()
    {
        return tree;
    }
}
