package io.cheetah.server.ingest;

import io.cheetah.forward.ForwardLane;
import io.cheetah.server.period.HourWindow;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.server.dispatch.Dispatcher;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.dispatch.TreePool;
import io.cheetah.server.journal.JournalWriter;
import io.cheetah.server.metrics.IngestCounters;
import io.cheetah.core.count.SharedCount;
import io.cheetah.server.period.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What one Netty event-loop thread needs to turn frames into dispatched trees: its tree pool, its decoder (with
 * its own interner) and its dispatcher, or, on an edge, the {@link TreeOutlet} that takes the trees instead.
 * Created lazily per thread by {@link TcpIngest}; used by the {@link FrameDecoder}s of the connections that thread
 * owns, each of which brings its own {@link Pt1ClockOffset}. Not thread-safe.
 */
public final class IngestWorker
{
    private static final Logger LOG = LoggerFactory.getLogger(IngestWorker.class);

    private final TreePool pool;
    private final TreeDecoder decoder;
    private final Dispatcher dispatcher;
    private final Consumer<PooledTree> baseline;
    private final IngestCounters counters;
    /** This worker's own lane of the frames count (its event-loop thread alone adds to it). */
    private final SharedCount.Lane frames;
    private final Clock pt1Clock;
    private final Clock clock;
    private final JournalWriter journal;
    /** This thread's lane to the CAT servers of {@code forward.cat.servers}, or null when nothing is forwarded. */
    private final ForwardLane forward;
    /** Where decoded trees go instead of the journal and the dispatcher (an edge), or null. */
    private final TreeOutlet outlet;
    /** This worker's lane of the trees count when an outlet takes them (the dispatcher counts them otherwise). */
    private final SharedCount.Lane outletTrees;
    private boolean flushing;

    /**
     * @param pool       this thread's trees.
     * @param decoder    this thread's decoder.
     * @param dispatcher this thread's dispatcher.
     * @param counters   where bad frames and adopted PT1 offsets are counted.
     * @param clock      the dispatcher's clock.
     * @param pt1Clock   the same clock, to infer each connection's PT1 clock offset against
     *                   ({@code tcp.pt1.inferOffset}); null infers nothing.
     * @param journal    this thread's tree journal, or null when nothing is journaled.
     * @param forward    this thread's lane to the CAT servers every decoded frame is passed on to, or null.
     */
    public IngestWorker(final TreePool pool, final TreeDecoder decoder, final Dispatcher dispatcher,
        final IngestCounters counters, final Clock clock, final Clock pt1Clock, final JournalWriter journal,
        final ForwardLane forward)
    {
        this.pool = pool;
        this.decoder = decoder;
        this.dispatcher = dispatcher;
        this.baseline = null;
        this.counters = counters;
        this.frames = counters.framesReceived.lane();
        this.clock = clock;
        this.pt1Clock = pt1Clock;
        this.journal = journal;
        this.forward = forward;
        this.outlet = null;
        this.outletTrees = null;
    }

    /**
     * A worker that hands every decoded tree to an outlet instead of journaling and dispatching it (an edge of the
     * Kafka mode); it decodes, forwards, corrects PT1 offsets and marks wide connections as any other.
     *
     * @param pool     this thread's trees.
     * @param decoder  this thread's decoder.
     * @param outlet   takes each decoded tree, on this thread.
     * @param counters where trees, bad frames and adopted PT1 offsets are counted.
     * @param clock    the server's clock: each tree's arrival time.
     * @param pt1Clock the same clock, to infer each connection's PT1 clock offset against
     *                 ({@code tcp.pt1.inferOffset}); null infers nothing.
     * @param forward  this thread's lane to the CAT servers every decoded frame is passed on to, or null.
     */
    public IngestWorker(final TreePool pool, final TreeDecoder decoder, final TreeOutlet outlet,
        final IngestCounters counters, final Clock clock, final Clock pt1Clock, final ForwardLane forward)
    {
        this.pool = pool;
        this.decoder = decoder;
        this.dispatcher = null;
        this.baseline = null;
        this.counters = counters;
        this.frames = counters.framesReceived.lane();
        this.clock = clock;
        this.pt1Clock = pt1Clock;
        this.journal = null;
        this.forward = forward;
        this.outlet = java.util.Objects.requireNonNull(outlet, "outlet");
        this.outletTrees = counters.treesReceived.lane();
    }

    /**
     * A worker for a benchmark baseline (pipeline.mode drain or classic, package {@code io.cheetah.server.baseline}),
     * which, as CAT, infers no PT1 clock offset.
     *
     * @param pool     this thread's trees.
     * @param decoder  this thread's decoder, or null to decode nothing (drain: frames are counted and dropped).
     * @param handoff  takes each decoded tree (and gives it back to the pool); unused when decoder is null.
     * @param counters where frames and bad frames are counted.
     */
    public IngestWorker(final TreePool pool, final TreeDecoder decoder, final Consumer<PooledTree> handoff,
        final IngestCounters counters)
    {
        this.pool = pool;
        this.decoder = decoder;
        this.dispatcher = null;
        this.baseline = handoff;
        this.counters = counters;
        this.frames = counters.framesReceived.lane();
        this.clock = null;
        this.pt1Clock = null;
        this.journal = null;
        this.forward = null;
        this.outlet = null;
        this.outletTrees = null;
    }

    /**
     * Starts writing this thread's journal buffer every {@code flushMillis} on its event loop (once; later calls do
     * nothing), so a tree read more than that ago is out of process memory. Call on the event-loop thread.
     *
     * @param loop        the event loop that owns this worker.
     * @param flushMillis the period.
     */
    public void flushEvery(final ScheduledExecutorService loop, final long flushMillis)
    {
        if (journal != null && !flushing)
        {
            flushing = true;
            loop.scheduleAtFixedRate(journal::flush, flushMillis, flushMillis, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Writes and closes this thread's journal (after its event loop stopped).
     */
    public void closeJournal()
    {
        if (journal != null)
        {
            journal.close();
        }
    }

    /**
     * @return a free tree for the next frame.
     */
    public PooledTree acquire()
    {
        return pool.acquire();
    }

    /**
     * Returns a tree that will not be decoded (the connection ended mid-frame).
     *
     * @param tree the tree.
     */
    public void discard(final PooledTree tree)
    {
        pool.giveBack(tree);
    }

    /**
     * Decodes the frame held in the tree, passes it on to the CAT servers of a side-by-side trial (when forwarding),
     * moves a PT1 tree by its connection's clock offset, and dispatches it, or counts why it is malformed (a
     * malformed frame is not forwarded).
     *
     * @param tree       a tree whose frame buffer holds one complete frame.
     * @param connection the PT1 clock offset of the connection the frame came from.
     * @param domains    the domains that connection has sent.
     */
    public void frameComplete(final PooledTree tree, final Pt1ClockOffset connection, final ConnectionDomains domains)
    {
        frames.increment();
        if (decoder == null)
        {
            pool.giveBack(tree);
            return;
        }
        try
        {
            decoder.decodeFrameInPlace(tree.tree());
        }
        catch (final MalformedFrameException e)
        {
            counters.badFrames(e.error()).increment();
            pool.giveBack(tree);
            return;
        }
        catch (final RuntimeException e)
        {
            // a decoder bug must not take the connection's thread down; count it as a truncated frame
            counters.badFrames(io.cheetah.codec.FrameError.TRUNCATED).increment();
            pool.giveBack(tree);
            return;
        }
        if (forward != null)
        {
            // the exact bytes received, before anything may recycle the tree; never waits (a full buffer drops)
            forward.offer(tree.tree().frame(), tree.tree().frameLength());
        }
        if (baseline != null)
        {
            baseline.accept(tree);
            return;
        }
        if (pt1Clock != null)
        {
            final int before = connection.offsetHours();
            if (connection.correct(tree.tree(), decoder.pt1DomainZone(), pt1Clock))
            {
                adopted(tree.tree(), connection.offsetHours());
                // the run's earlier trees were held: moved by the offset they were waiting for, they go first
                releaseHeld(connection, domains, (before - connection.offsetHours()) * HourWindow.HOUR);
            }
            else if (connection.pending())
            {
                if (connection.runStarted())
                {
                    releaseHeld(connection, domains, 0);
                }
                connection.hold(tree);
                counters.pt1TreesHeld.increment();
                return;
            }
            else if (connection.heldCount() > 0)
            {
                releaseHeld(connection, domains, 0);
            }
        }
        dispatchDecoded(tree, connection.appliedHours(), domains);
    }

    /**
     * Lets a connection's held PT1 trees go on (its run broke, it closed, or the hold timed out: as they are; its run
     * adopted an offset: moved by it), oldest first. Called on the connection's own thread.
     *
     * @param connection  the connection's clock offset, holding the trees.
     * @param domains     the domains that connection has sent.
     * @param shiftMillis how far to move each tree (0: as judged).
     */
    public void releaseHeld(final Pt1ClockOffset connection, final ConnectionDomains domains, final long shiftMillis)
    {
        PooledTree held;
        while ((held = connection.takeHeld()) != null)
        {
            if (shiftMillis != 0)
            {
                held.tree().shiftTimestamps(shiftMillis);
            }
            dispatchDecoded(held, connection.offsetHours(), domains);
        }
    }

    /**
     * Journals (when on) and dispatches a decoded tree, or hands it to the outlet; {@code appliedHours} is the PT1
     * offset it was moved by.
     */
    private void dispatchDecoded(final PooledTree tree, final int appliedHours, final ConnectionDomains domains)
    {
        if (domains.observe(tree.tree().domain()) != 0)
        {
            counters.wideConnections.increment();
            LOG.warn("connection from {} ({}) sent more than {} domains, the latest {}: its trees now open new " +
                "domains only in half of each analyzer's domain cap", tree.tree().ip(), tree.tree().hostname(),
                ConnectionDomains.WIDE_AFTER, tree.tree().domain());
        }
        if (domains.wide())
        {
            tree.tree().markWideSource();
        }
        if (outlet != null)
        {
            handOut(tree, appliedHours);
            return;
        }
        if (journal == null)
        {
            dispatcher.dispatch(tree);
            return;
        }
        // journaled before it is dispatched: once published, a consumer may recycle the tree
        final long now = clock.millis();
        final long sequence = journal.append(tree.tree(), now, appliedHours);
        dispatcher.dispatch(tree, journal.id(), sequence, Dispatcher.ALL, now);
        journal.dispatched(sequence);
    }

    /** An edge's path: the outlet copies what it keeps, so the tree is free again as soon as it returns. */
    private void handOut(final PooledTree tree, final int appliedHours)
    {
        outletTrees.increment();
        try
        {
            outlet.accept(tree.tree(), clock.millis(), appliedHours);
        }
        finally
        {
            // an outlet that throws (closed while the server stops) leaves the tree to the pool all the same
            pool.giveBack(tree);
        }
    }

    /** Once per connection (again only if its clock moves): counted, and logged with whose clock it is. */
    private void adopted(final FlatTree tree, final int hours)
    {
        if (hours != 0)
        {
            counters.pt1OffsetAdopted(hours);
        }
        LOG.info("PT1 timestamps of {} ({} {}) are {} off {}; this connection's PT1 trees are read accordingly",
            tree.domain(), tree.hostname(), tree.ip(), IngestCounters.offsetLabel(hours), decoder.pt1Zone());
    }
}
