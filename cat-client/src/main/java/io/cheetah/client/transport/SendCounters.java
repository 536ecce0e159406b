package io.cheetah.client.transport;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything that happened to the trees the client produced, so nothing is lost silently. Application threads
 * increment the adders; the sender thread is the only writer of the sent / write-failure / close counters. Once the
 * client is closed: {@code produced == sent + dropped()}.
 */
public final class SendCounters
{
    /** Trees completed by the application (and the client's own heartbeat and reboot trees). */
    final LongAdder produced = new LongAdder();
    /** Trees refused by the full normal queue. */
    final LongAdder queueFull = new LongAdder();
    /** Trees refused by the full high-priority queue. */
    final LongAdder highQueueFull = new LongAdder();
    /** Successful trees the router's {@code sample} left out. */
    final LongAdder sampledOut = new LongAdder();
    /** Trees a full queue could not take, folded into the per-name aggregates instead (counted, not lost). */
    final LongAdder overflowFolded = new LongAdder();
    /** Trees not sent because the router said {@code block=true}. */
    final LongAdder blocked = new LongAdder();
    /** Messages not attached because their tree reached its message cap. */
    final LongAdder messagesOverCap = new LongAdder();
    /** Message data cut to the data cap. */
    final LongAdder dataTruncated = new LongAdder();
    /** Trees written to a socket. */
    final AtomicLong sent = new AtomicLong();
    /** Bytes written to sockets. */
    final AtomicLong bytes = new AtomicLong();
    /** Trees lost because the write they were in failed. */
    final AtomicLong writeFailed = new AtomicLong();
    /** Trees that could not be encoded. */
    final AtomicLong encodeFailed = new AtomicLong();
    /** Trees still queued when the client closed. */
    final AtomicLong discardedAtClose = new AtomicLong();
    /** Connections opened. */
    final AtomicLong connects = new AtomicLong();

    /** Counts one produced tree. */
    public void produced()
    {
        produced.increment();
    }

    /** Counts one message that did not fit in its tree. */
    public void messageOverCap()
    {
        messagesOverCap.increment();
    }

    /** Counts one message whose data was cut. */
    public void dataTruncated()
    {
        dataTruncated.increment();
    }

    /**
     * @return a consistent-enough copy for reports and tests.
     */
    public Snapshot snapshot()
    {
        return new Snapshot(produced.sum(), sent.get(), bytes.get(), queueFull.sum(), highQueueFull.sum(),
            sampledOut.sum(), blocked.sum(), writeFailed.get(), encodeFailed.get(), discardedAtClose.get(),
            messagesOverCap.sum(), dataTruncated.sum(), connects.get(), overflowFolded.sum());
    }

    /**
     * The counters at one moment.
     *
     * @param produced         trees produced.
     * @param sent             trees written to a socket.
     * @param bytes            bytes written.
     * @param queueFull        trees refused by the full normal queue.
     * @param highQueueFull    trees refused by the full high-priority queue.
     * @param sampledOut       successful trees left out by sampling.
     * @param blocked          trees not sent because the router blocks this domain.
     * @param writeFailed      trees lost in a failed write.
     * @param encodeFailed     trees that could not be encoded.
     * @param discardedAtClose trees still queued at close.
     * @param messagesOverCap  messages dropped by the per-tree cap (not trees).
     * @param dataTruncated    messages whose data was cut (not trees).
     * @param connects         connections opened.
     * @param overflowFolded   trees a full queue could not take, folded into the aggregates (counts kept).
     */
    public record Snapshot(long produced, long sent, long bytes, long queueFull, long highQueueFull, long sampledOut,
                           long blocked, long writeFailed, long encodeFailed, long discardedAtClose,
                           long messagesOverCap, long dataTruncated, long connects, long overflowFolded)
    {
        /**
         * @return trees produced and not sent whole, for any reason (sampled out and folded ones included: their
         *         counts went out in the aggregates).
         */
        public long dropped()
        {
            return queueFull + highQueueFull + sampledOut + overflowFolded + blocked + writeFailed + encodeFailed +
                discardedAtClose;
        }
    }
}
