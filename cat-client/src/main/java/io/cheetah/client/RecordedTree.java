package io.cheetah.client;

import io.cheetah.client.transport.MessageIds;
import io.cheetah.client.transport.OutboundTree;
import io.cheetah.client.transport.SampledCounts;
import io.cheetah.codec.FrameWriter;
import io.cheetah.message.Message;

import java.util.Arrays;

/**
 * One application tree, recorded flat: its messages in pre-order in parallel arrays (kind, type, name, status, data,
 * time, duration, and for a transaction the index past its last descendant), so recording a message is a few array
 * stores and no object. A thread records it ({@link ThreadContext}), the sender encodes it as NT1 on its own thread
 * and puts it back in the client's {@link TreePool}, so once warm a request allocates no tree. The arrays grow
 * (doubling) up to the tree's message cap and are kept for the next tree.
 * <pre>
 *  URL ─┬─ E URL.Server            index: 0 t URL        end 9
 *       ├─ Cache.redis ── E …             1 E URL.Server
 *       ├─ SQL ── E, E                    2 t Cache.redis end 4 …
 *       └─ Call ── E                      …
 * </pre>
 */
final class RecordedTree implements OutboundTree
{
    /** Kind of a transaction entry (its NT1 begin tag); other entries hold their own NT1 tag. */
    static final byte TRANSACTION = 't';

    private static final int INITIAL_MESSAGES = 16;

    private final String domain;
    private final String hostname;
    private final String ip;
    private final TreePool pool;

    /** The thread context recording this tree, or that recorded it last. */
    ThreadContext recorder;
    /** True from {@link #reset} until the tree goes to the sender: only then may handles change it. */
    boolean recording;
    String threadGroupName = "";
    String threadId = "";
    String threadName = "";
    String messageId = "";
    String parentMessageId = "";
    String rootMessageId = "";
    /** Holds a failure, an error or a heartbeat: the high-priority queue, never sampled out. */
    boolean important;

    int size;
    byte[] kinds;
    String[] types;
    String[] names;
    String[] statuses;
    String[] datas;
    long[] timestamps;
    /** Transactions: µs once completed (or set explicitly); -1 while open without an explicit duration. */
    long[] durations;
    /** Transactions: System.nanoTime() at begin. */
    long[] starts;
    /** Transactions: index past the last descendant once completed; 0 while open. */
    int[] ends;
    /** Transactions: the serial of the handle that may touch the entry, so a stale handle cannot. */
    int[] serials;
    /** Sender thread's stack of open transactions while encoding. */
    private int[] encodeStack;

    /**
     * @param domain   the client's domain, host name and address: every tree's header.
     * @param hostname see domain.
     * @param ip       see domain.
     * @param pool     where the tree goes back once sent.
     */
    RecordedTree(final String domain, final String hostname, final String ip, final TreePool pool)
    {
        this.domain = domain;
        this.hostname = hostname;
        this.ip = ip;
        this.pool = pool;
        allocate(INITIAL_MESSAGES);
    }

    private void allocate(final int capacity)
    {
        kinds = new byte[capacity];
        types = new String[capacity];
        names = new String[capacity];
        statuses = new String[capacity];
        datas = new String[capacity];
        timestamps = new long[capacity];
        durations = new long[capacity];
        starts = new long[capacity];
        ends = new int[capacity];
        serials = new int[capacity];
        encodeStack = new int[capacity];
    }

    /**
     * Starts the tree afresh for a thread.
     */
    void reset(final ThreadContext context, final String thread)
    {
        recorder = context;
        recording = true;
        threadGroupName = context.threadGroupName;
        threadId = context.threadId;
        threadName = thread;
        messageId = "";
        parentMessageId = "";
        rootMessageId = "";
        important = false;
        size = 0;
    }

    /**
     * Appends one message as the last child of the innermost open transaction (the caller keeps the stack).
     *
     * @return its index.
     */
    int add(final byte kind, final String type, final String name, final String status, final String data,
        final long timestampMillis)
    {
        final int i = size;
        if (i == kinds.length)
        {
            grow();
        }
        kinds[i] = kind;
        types[i] = type;
        names[i] = name;
        statuses[i] = status;
        datas[i] = data;
        timestamps[i] = timestampMillis;
        ends[i] = 0;
        serials[i] = 0;
        size = i + 1;
        return i;
    }

    private void grow()
    {
        final int n = kinds.length * 2;
        kinds = Arrays.copyOf(kinds, n);
        types = Arrays.copyOf(types, n);
        names = Arrays.copyOf(names, n);
        statuses = Arrays.copyOf(statuses, n);
        datas = Arrays.copyOf(datas, n);
        timestamps = Arrays.copyOf(timestamps, n);
        durations = Arrays.copyOf(durations, n);
        starts = Arrays.copyOf(starts, n);
        ends = Arrays.copyOf(ends, n);
        serials = Arrays.copyOf(serials, n);
        encodeStack = new int[n];
    }

    @Override
    public void encode(final FrameWriter out, final MessageIds ids)
    {
        out.beginFrame();
        out.writeAscii("NT1");
        out.writeString(domain);
        out.writeString(hostname);
        out.writeString(ip);
        out.writeString(threadGroupName);
        out.writeString(threadId);
        out.writeString(threadName);
        if (messageId.isEmpty())
        {
            ids.writeNext(out); // nobody asked this tree's id: it is minted straight into the frame
        }
        else
        {
            out.writeString(messageId);
        }
        out.writeString(parentMessageId);
        out.writeString(rootMessageId);
        out.writeString("");
        final int[] stack = encodeStack;
        int depth = 0;
        for (int i = 0; i < size; i++)
        {
            while (depth > 0 && ends[stack[depth - 1]] == i)
            {
                writeEnd(stack[--depth], out);
            }
            final byte kind = kinds[i];
            out.writeByte(kind);
            out.writeVarLong(timestamps[i]);
            out.writeString(types[i]);
            out.writeString(names[i]);
            if (kind == TRANSACTION)
            {
                stack[depth++] = i;
            }
            else
            {
                out.writeString(statuses[i]);
                out.writeString(datas[i]);
            }
        }
        while (depth > 0)
        {
            writeEnd(stack[--depth], out);
        }
        out.endFrame();
    }

    private void writeEnd(final int i, final FrameWriter out)
    {
        out.writeByte('T');
        out.writeString(statuses[i]);
        out.writeString(datas[i]);
        out.writeVarLong(durations[i]);
    }

    @Override
    public void foldInto(final SampledCounts counts)
    {
        for (int i = 0; i < size; i++)
        {
            final byte kind = kinds[i];
            if (kind == TRANSACTION)
            {
                counts.transaction(types[i], names[i], Message.SUCCESS.equals(statuses[i]), durations[i]);
            }
            else if (kind == 'E')
            {
                counts.event(types[i], names[i], Message.SUCCESS.equals(statuses[i]));
            }
        }
    }

    @Override
    public void release()
    {
        // Data can be large (stack traces); a pooled tree must not keep it alive until it is reused.
        Arrays.fill(datas, 0, size, null);
        pool.offer(this);
    }
}
