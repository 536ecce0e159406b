package io.cheetah.report;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.function.ObjLongConsumer;

/**
 * Counts what one analyzer instance folded, truncated, skipped or refused, so that no cap or rule loses data
 * silently: read by the State report and /metrics from other threads. Written by the analyzer's single thread
 * with ordered (lazySet) writes, read with volatile reads; no lock, no contention.
 */
public final class FoldCounters
{
    private static final AtomicLongFieldUpdater<FoldCounters> MACHINES =
        AtomicLongFieldUpdater.newUpdater(FoldCounters.class, "machinesFolded");
    private static final AtomicLongFieldUpdater<FoldCounters> TYPES =
        AtomicLongFieldUpdater.newUpdater(FoldCounters.class, "typesFolded");
    private static final AtomicLongFieldUpdater<FoldCounters> NAMES =
        AtomicLongFieldUpdater.newUpdater(FoldCounters.class, "namesFolded");
    private static final AtomicLongFieldUpdater<FoldCounters> STATUS =
        AtomicLongFieldUpdater.newUpdater(FoldCounters.class, "statusFolded");
    private static final AtomicLongFieldUpdater<FoldCounters> DOMAINS =
        AtomicLongFieldUpdater.newUpdater(FoldCounters.class, "domainsRefused");
    private static final AtomicLongFieldUpdater<FoldCounters> CLEANED =
        AtomicLongFieldUpdater.newUpdater(FoldCounters.class, "stringsCleaned");
    private static final AtomicLongFieldUpdater<FoldCounters> BAD_BATCH =
        AtomicLongFieldUpdater.newUpdater(FoldCounters.class, "malformedBatch");
    private static final AtomicLongFieldUpdater<FoldCounters> SKIPPED =
        AtomicLongFieldUpdater.newUpdater(FoldCounters.class, "messagesSkipped");

    private volatile long machinesFolded;
    private volatile long typesFolded;
    private volatile long namesFolded;
    private volatile long statusFolded;
    private volatile long domainsRefused;
    private volatile long stringsCleaned;
    private volatile long malformedBatch;
    private volatile long messagesSkipped;

    /** @param n messages counted under machine OTHERS because the domain had too many machines. */
    public void machinesFolded(final long n)
    {
        MACHINES.lazySet(this, machinesFolded + n);
    }

    /** @param n messages counted under type OTHERS. */
    public void typesFolded(final long n)
    {
        TYPES.lazySet(this, typesFolded + n);
    }

    /** @param n messages counted under name OTHERS. */
    public void namesFolded(final long n)
    {
        NAMES.lazySet(this, namesFolded + n);
    }

    /** @param n failures counted under status code OTHERS. */
    public void statusFolded(final long n)
    {
        STATUS.lazySet(this, statusFolded + n);
    }

    /** @param n trees refused because the hour already held the maximum number of domains. */
    public void domainsRefused(final long n)
    {
        DOMAINS.lazySet(this, domainsRefused + n);
    }

    /** @param n strings truncated or with control characters replaced. */
    public void stringsCleaned(final long n)
    {
        CLEANED.lazySet(this, stringsCleaned + n);
    }

    /** @param n messages whose batch data did not parse (counted as one plain message each). */
    public void malformedBatch(final long n)
    {
        BAD_BATCH.lazySet(this, malformedBatch + n);
    }

    /** @param n messages skipped by CAT's rules (discard list, truncated RemoteCall/Next roots). */
    public void messagesSkipped(final long n)
    {
        SKIPPED.lazySet(this, messagesSkipped + n);
    }

    /** @return the count so far (any thread). */
    public long machinesFolded()
    {
        return machinesFolded;
    }

    /** @return the count so far (any thread). */
    public long typesFolded()
    {
        return typesFolded;
    }

    /** @return the count so far (any thread). */
    public long namesFolded()
    {
        return namesFolded;
    }

    /** @return the count so far (any thread). */
    public long statusFolded()
    {
        return statusFolded;
    }

    /** @return the count so far (any thread). */
    public long domainsRefused()
    {
        return domainsRefused;
    }

    /** @return the count so far (any thread). */
    public long stringsCleaned()
    {
        return stringsCleaned;
    }

    /** @return the count so far (any thread). */
    public long malformedBatch()
    {
        return malformedBatch;
    }

    /** @return the count so far (any thread). */
    public long messagesSkipped()
    {
        return messagesSkipped;
    }

    /**
     * @param out receives each counter's label and value (the {@code reason} label of
     *            {@code cheetah_analyzer_losses_total}).
     */
    public void forEach(final ObjLongConsumer<String> out)
    {
        out.accept("machines_folded", machinesFolded);
        out.accept("types_folded", typesFolded);
        out.accept("names_folded", namesFolded);
        out.accept("status_folded", statusFolded);
        out.accept("domains_refused", domainsRefused);
        out.accept("strings_cleaned", stringsCleaned);
        out.accept("malformed_batch", malformedBatch);
        out.accept("messages_skipped", messagesSkipped);
    }
}
