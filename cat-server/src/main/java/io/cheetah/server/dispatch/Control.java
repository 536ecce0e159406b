package io.cheetah.server.dispatch;

import io.cheetah.analysis.Report;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-band request handled by every consumer of a ring in order with the trees: close an hour, checkpoint,
 * snapshot a report, list domains, or just pass (a barrier). Rare, so allocated per request. Completes its future
 * when the last consumer of every ring it was published to has handled it.
 */
public final class Control
{
    /** What the consumers do. */
    public enum Kind
    {
        /** closeHour(hour) on every analyzer, reports to ReportSink.hourClosed. */
        CLOSE_HOUR,
        /** Snapshot every open hour, reports to ReportSink.checkpoint. */
        CHECKPOINT,
        /** snapshot(hour, domain) of one analyzer. */
        SNAPSHOT,
        /** domains(hour) of one analyzer. */
        DOMAINS,
        /** restore(report) on the owning partition of each report of one analyzer (restart within the hour). */
        RESTORE,
        /** Nothing: completes once everything published before it has been processed. */
        BARRIER,
        /**
         * checkpoint(hour, domain) of every open hour and domain of the analyzers in {@link #analyzers}, into
         * {@link #reports()} instead of the sink (a Kafka aggregator's checkpoint of its partitions).
         */
        COLLECT,
        /**
         * closeHour of every open hour of the analyzers in {@link #analyzers}, the reports dropped (a Kafka
         * aggregator forgets what it counted before it restores its partitions' checkpoints).
         */
        FORGET
    }

    final Kind kind;
    final long hour;
    final String analyzer;
    final String domain;
    final ConcurrentLinkedQueue<Report> reports = new ConcurrentLinkedQueue<>();
    List<Report> toRestore = List.of();
    /** COLLECT and FORGET: bits ({@link AnalyzerSlot#bit()}) of the analyzers concerned. */
    long analyzers;
    /** CHECKPOINT: per journal, the last tree handed to the rings before this was published (null: none). */
    long[] dispatched;
    /**
     * CHECKPOINT: write every analyzer's reports, also those that took no tree since the last round (set when the
     * last round did not commit, so the files on disk may be older than the consumers think).
     */
    boolean full = true;
    private final Map<String, long[]> cut = new ConcurrentHashMap<>();
    final Set<String> domains = new ConcurrentSkipListSet<>();
    private final AtomicInteger pending;
    private final CompletableFuture<Control> done = new CompletableFuture<>();

    Control(final Kind kind, final long hour, final String analyzer, final String domain, final int consumers)
    {
        this.kind = kind;
        this.hour = hour;
        this.analyzer = analyzer;
        this.domain = domain;
        this.pending = new AtomicInteger(consumers);
    }

    void handled()
    {
        if (pending.decrementAndGet() == 0)
        {
            done.complete(this);
        }
    }

    /**
     * @return completes when every consumer has handled the request.
     */
    public CompletableFuture<Control> done()
    {
        return done;
    }

    /**
     * @return the reports collected by a SNAPSHOT request (one per partition that had data) or a COLLECT request.
     */
    public List<Report> reports()
    {
        return List.copyOf(reports);
    }

    /**
     * @return for a CHECKPOINT with journal positions, once done: per analyzer, the last sequence of each journal
     *         whose tree its snapshot holds (see {@code JournalCut}); empty otherwise.
     */
    public Map<String, long[]> cut()
    {
        return cut;
    }

    void cut(final String analyzer, final long[] positions)
    {
        cut.put(analyzer, positions);
    }

    /**
     * @return the domains collected by a DOMAINS request.
     */
    public Set<String> domains()
    {
        return domains;
    }
}
