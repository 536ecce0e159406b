package io.cheetah.client;

import io.cheetah.message.Message;

import java.time.Instant;
import java.util.Arrays;

/**
 * One application thread's tree under construction: a flat {@link RecordedTree}, the stack of its open transactions
 * and the pending ids of a remote caller. Touched only by its own thread. When the outermost transaction completes,
 * or a message is logged with no transaction open, the tree goes to the sender, which encodes it and hands it back
 * to the client's {@link TreePool} for a later tree: once warm, a request costs its transaction handles and nothing
 * else.
 * <pre>
 *  newTransaction ─▶ entry 't' + push (child of the top, or root of a new tree) ─▶ TransactionHandle
 *  logEvent/…     ─▶ entry (child of the top, or a one-message tree sent at once)
 *  complete       ─▶ pop (completing anything opened inside it); empty stack ─▶ Sender.submit(tree)
 *  sender done    ─▶ TreePool ─▶ the next tree of any thread
 * </pre>
 * A tree holds at most {@code cat.tree.max.messages} messages; later ones are dropped and counted.
 */
final class ThreadContext
{
    /** How long one pairing of the wall clock with the monotonic clock is used. */
    private static final long RECALIBRATE_NANOS = 1_000_000_000L;

    final String threadId;
    final String threadGroupName;

    private final CatClient client;
    private final int maxMessages;
    private final int maxDataChars;

    /** The tree being recorded; null when no transaction is open. */
    private RecordedTree tree;
    /** A tree the sender refused or folded, kept for the next one. */
    private RecordedTree spare;
    private int[] open = new int[8];
    /** Wall-clock (µs since the epoch) and monotonic times read together, at most {@link #RECALIBRATE_NANOS} ago. */
    private long baseMicros;
    private long baseNanos = System.nanoTime() - RECALIBRATE_NANOS - 1;
    private int depth;
    /** The latest exact wall-clock time read on this thread: no event is stamped earlier. */
    private long floorMillis;
    /** The next transaction serial; a block of {@link CatClient#SERIAL_BLOCK} is taken from the client at a time. */
    private int nextSerial;

    // Ids set by logRemoteCallServer before any transaction was open: applied to the next tree.
    private String pendingMessageId;
    private String pendingParentId;
    private String pendingRootId;

    ThreadContext(final CatClient client, final Thread thread)
    {
        this.client = client;
        this.threadId = Long.toString(thread.getId());
        final ThreadGroup group = thread.getThreadGroup();
        this.threadGroupName = group == null ? "" : group.getName();
        this.maxMessages = client.config().maxTreeMessages();
        this.maxDataChars = client.config().maxDataChars();
    }

    Transaction begin(final String type, final String name)
    {
        final long nanos = System.nanoTime();
        final long millis;
        if (depth == 0)
        {
            millis = wallMillis(nanos);
            startTree();
        }
        else if (tree.size >= maxMessages)
        {
            client.counters().messageOverCap();
            return NoopTransaction.INSTANCE;
        }
        else
        {
            millis = millisAt(nanos);
        }
        floorMillis = millis;
        final RecordedTree t = tree;
        final int i = t.add(RecordedTree.TRANSACTION, nonNull(type), nonNull(name), Message.SUCCESS, "", millis);
        t.starts[i] = nanos;
        t.durations[i] = -1;
        if ((nextSerial & (CatClient.SERIAL_BLOCK - 1)) == 0)
        {
            nextSerial = client.serialBlock(); // never 0: 0 marks an entry no handle may touch
        }
        final int serial = nextSerial++;
        t.serials[i] = serial;
        if (depth == open.length)
        {
            open = Arrays.copyOf(open, depth * 2);
        }
        open[depth++] = i;
        return new TransactionHandle(t, i, serial);
    }

    /**
     * Completes entry {@code index} of {@code t} and every transaction opened inside it; the tree goes to the sender
     * when nothing stays open. A handle of another tree, or of an entry already completed, changes nothing.
     */
    void complete(final RecordedTree t, final int index, final int serial)
    {
        if (t != tree || index >= t.size || t.serials[index] != serial || t.ends[index] != 0)
        {
            return;
        }
        int at = depth - 1;
        while (at >= 0 && open[at] != index)
        {
            at--;
        }
        if (at < 0)
        {
            return;
        }
        final long now = System.nanoTime();
        floorMillis = millisAt(now);
        final int end = t.size;
        while (depth > at)
        {
            final int j = open[--depth];
            if (t.durations[j] < 0)
            {
                t.durations[j] = Math.max(0, (now - t.starts[j]) / 1000L);
            }
            t.ends[j] = end;
            if (!Message.SUCCESS.equals(t.statuses[j]))
            {
                t.important = true;
            }
        }
        if (depth == 0)
        {
            submitTree();
        }
    }

    /**
     * Logs an event, heartbeat, metric or trace (kind: its NT1 tag): a child of the open transaction, or a tree of its
     * own.
     */
    void log(final byte kind, final String type, final String name, final String status, final String data,
        final boolean forceImportant)
    {
        // the ticker's millisecond, not a clock call (see CoarseClock), never before the tree's last exact time
        final long coarse = client.clock().millis();
        final long millis = depth == 0 ? coarse : Math.max(coarse, floorMillis);
        final String s = nonNull(status);
        if (depth == 0)
        {
            startTree();
        }
        else if (tree.size >= maxMessages)
        {
            client.counters().messageOverCap();
            return;
        }
        tree.add(kind, nonNull(type), nonNull(name), s, truncate(nonNull(data)), millis);
        if (forceImportant || !Message.SUCCESS.equals(s))
        {
            tree.important = true;
        }
        if (depth == 0)
        {
            submitTree();
        }
    }

    String appendData(final String existing, final String more)
    {
        final String joined = existing == null || existing.isEmpty() ? more : existing + '&' + more;
        return truncate(joined);
    }

    String truncate(final String data)
    {
        if (data != null && data.length() > maxDataChars)
        {
            client.counters().dataTruncated();
            return data.substring(0, maxDataChars);
        }
        return data;
    }

    /**
     * @return the open tree's id, minted now if it has none; null with no transaction open.
     */
    String currentMessageId()
    {
        if (tree == null)
        {
            return null;
        }
        if (tree.messageId.isEmpty())
        {
            tree.messageId = client.createMessageId();
        }
        return tree.messageId;
    }

    /**
     * @return the root id to pass to a callee: this tree's root id, or its own id when it is the root.
     */
    String rootMessageIdForCallee()
    {
        final String own = currentMessageId();
        if (tree == null)
        {
            return own;
        }
        return tree.rootMessageId.isEmpty() ? own : tree.rootMessageId;
    }

    void linkToCaller(final String messageId, final String parentId, final String rootId)
    {
        if (tree != null)
        {
            if (messageId != null && !messageId.isEmpty())
            {
                tree.messageId = messageId;
            }
            tree.parentMessageId = nonNull(parentId);
            tree.rootMessageId = nonNull(rootId);
        }
        else
        {
            pendingMessageId = messageId;
            pendingParentId = parentId;
            pendingRootId = rootId;
        }
    }

    /**
     * The wall-clock time of a moment, from the monotonic clock and the last pairing of the two: one clock read per
     * message instead of two (each costs ~30 ns here, the larger part of a request's cost), and times that never run
     * backwards within a tree.
     */
    private long millisAt(final long nanos)
    {
        return (baseMicros + Math.max(0, nanos - baseNanos) / 1_000L) / 1_000L;
    }

    /**
     * The wall-clock time at the start of a tree: derived like {@link #millisAt} while the pairing of the two clocks is
     * under a second old, read again (and re-paired) otherwise, so a step of the wall clock shows within a second.
     */
    private long wallMillis(final long nanos)
    {
        if (nanos - baseNanos > RECALIBRATE_NANOS)
        {
            final Instant now = Instant.now(); // µs, not ms: a ms base would lag by up to a ms
            baseNanos = System.nanoTime();
            baseMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
            return baseMicros / 1_000L;
        }
        return millisAt(nanos);
    }

    /** @return true while a transaction is open on this thread. */
    boolean hasOpenTransaction()
    {
        return depth > 0;
    }

    private void startTree()
    {
        RecordedTree t = spare;
        if (t != null)
        {
            spare = null;
        }
        else
        {
            t = client.spareTree();
        }
        t.reset(this, Thread.currentThread().getName());
        if (pendingMessageId != null || pendingParentId != null || pendingRootId != null)
        {
            if (pendingMessageId != null)
            {
                t.messageId = pendingMessageId;
            }
            t.parentMessageId = nonNull(pendingParentId);
            t.rootMessageId = nonNull(pendingRootId);
            pendingMessageId = null;
            pendingParentId = null;
            pendingRootId = null;
        }
        tree = t;
    }

    private void submitTree()
    {
        final RecordedTree done = tree;
        tree = null;
        done.recording = false;
        if (!client.submit(done, done.important))
        {
            spare = done;
        }
    }

    private static String nonNull(final String s)
    {
        return s == null ? "" : s;
    }
}
