package io.cheetah.logview;

import io.cheetah.core.count.SharedCount;
import io.cheetah.logview.search.SearchCounters;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the logview store (and its archive) has done and what went wrong, for the metrics endpoint and the State
 * page; {@link #toMap()} holds the counters, {@link #gauges()} the values that go up and down. Written by
 * the dump analyzers (one writer thread per partition) and by look-ups on HTTP threads, hence {@link LongAdder}s;
 * read at any time through {@link #toMap()}.
 */
public final class LogviewCounters
{
    final SharedCount treesStored = new SharedCount();
    final SharedCount rawBytes = new SharedCount();
    final LongAdder compressedBytes = new LongAdder();
    final LongAdder blocksSealed = new LongAdder();
    final LongAdder idsUnparsable = new LongAdder();
    final LongAdder idHourOutOfRange = new LongAdder();
    final LongAdder domainsOverflow = new LongAdder();
    final LongAdder notIndexed = new LongAdder();
    final LongAdder writeErrors = new LongAdder();
    final LongAdder lookups = new LongAdder();
    final LongAdder misses = new LongAdder();
    final LongAdder malformedLookups = new LongAdder();
    final LongAdder lookupTimeouts = new LongAdder();
    final LongAdder damage = new LongAdder();
    final LongAdder hoursRemoved = new LongAdder();
    private final SearchCounters search = new SearchCounters();

    /**
     * @return the search index's and the searches' counters.
     */
    public SearchCounters search()
    {
        return search;
    }
    final LongAdder archiveHoursUploaded = new LongAdder();
    final LongAdder archiveBytesUploaded = new LongAdder();
    final LongAdder archiveFailures = new LongAdder();
    final LongAdder archiveMismatches = new LongAdder();
    final LongAdder archiveLookups = new LongAdder();
    final LongAdder archiveReadErrors = new LongAdder();
    final LongAdder archiveHoursRemoved = new LongAdder();
    final AtomicLong archiveBacklogHours = new AtomicLong();
    final AtomicLong archiveBacklogBytes = new AtomicLong();
    final AtomicLong localHoursKeptUnarchived = new AtomicLong();

    /**
     * @return one writer's own lanes of the counts it adds to for every tree (a logview writer's, made once).
     */
    WriterLanes writerLanes()
    {
        return new WriterLanes(treesStored.lane(), rawBytes.lane());
    }

    /**
     * The per-tree counts of one writer thread: added without an atomic instruction ({@link SharedCount}).
     *
     * @param treesStored its trees appended.
     * @param rawBytes    their frame bytes.
     */
    record WriterLanes(SharedCount.Lane treesStored, SharedCount.Lane rawBytes)
    {
    }

    /** Trees appended to a block (findable from then on). */
    public long treesStored()
    {
        return treesStored.sum();
    }

    /** Frame bytes appended, as received. */
    public long rawBytes()
    {
        return rawBytes.sum();
    }

    /** Bytes written to block files (headers and LZ4 data). */
    public long compressedBytes()
    {
        return compressedBytes.sum();
    }

    /** Blocks compressed and written. */
    public long blocksSealed()
    {
        return blocksSealed.sum();
    }

    /** Trees not stored because their message id does not parse. */
    public long idsUnparsable()
    {
        return idsUnparsable.sum();
    }

    /** Trees not stored because their id's hour is more than one hour away from the tree's own hour. */
    public long idHourOutOfRange()
    {
        return idHourOutOfRange.sum();
    }

    /** Trees not stored because their writer already holds {@code maxDomainsPerHour} domains for that hour. */
    public long domainsOverflow()
    {
        return domainsOverflow.sum();
    }

    /** Trees stored in a block but not indexed because their file ran out of index segments. */
    public long notIndexed()
    {
        return notIndexed.sum();
    }

    /** I/O failures while writing; the trees of the failed block are lost (and counted here once per block). */
    public long writeErrors()
    {
        return writeErrors.sum();
    }

    /** Look-ups by message id. */
    public long lookups()
    {
        return lookups.sum();
    }

    /** Look-ups of a well-formed id that found nothing. */
    public long misses()
    {
        return misses.sum();
    }

    /** Look-ups of a malformed id. */
    public long malformedLookups()
    {
        return malformedLookups.sum();
    }

    /** Look-ups given up (as misses) because a very fast writer sealed blocks under every copy for 2 s. */
    public long lookupTimeouts()
    {
        return lookupTimeouts.sum();
    }

    /** Damage found: a bad file tail on open, a block failing its checksum, an index slot pointing nowhere. */
    public long damage()
    {
        return damage.sum();
    }

    /** Hour directories deleted by retention. */
    public long hoursRemoved()
    {
        return hoursRemoved.sum();
    }

    /** Archive: hours uploaded, verified and marked complete (an hour uploaded again after a late tree counts too). */
    public long archiveHoursUploaded()
    {
        return archiveHoursUploaded.sum();
    }

    /** Archive: bytes of files uploaded and verified. */
    public long archiveBytesUploaded()
    {
        return archiveBytesUploaded.sum();
    }

    /** Archive: failed attempts (the archive down, full or refusing, a local read failing); each retried later. */
    public long archiveFailures()
    {
        return archiveFailures.sum();
    }

    /** Archive: files whose length or checksum read back from the archive differed from the local file's. */
    public long archiveMismatches()
    {
        return archiveMismatches.sum();
    }

    /** Archive: trees found in the archive by a look-up (the local hour was gone). */
    public long archiveLookups()
    {
        return archiveLookups.sum();
    }

    /** Archive: look-ups or hour listings that could not read the archive (then answered as not found). */
    public long archiveReadErrors()
    {
        return archiveReadErrors.sum();
    }

    /** Archive: hour directories deleted by the archive's own retention. */
    public long archiveHoursRemoved()
    {
        return archiveHoursRemoved.sum();
    }

    /** Archive backlog (gauge): sealed local hours not yet complete in the archive, at the uploader's last round. */
    public long archiveBacklogHours()
    {
        return archiveBacklogHours.get();
    }

    /** Archive backlog (gauge): bytes of those hours' files. */
    public long archiveBacklogBytes()
    {
        return archiveBacklogBytes.get();
    }

    /** Gauge: local hours past their retention kept because the archive does not hold them whole (yet). */
    public long localHoursKeptUnarchived()
    {
        return localHoursKeptUnarchived.get();
    }

    /**
     * Counts an hour uploaded, verified and marked complete (archive package).
     *
     * @param bytes its files' bytes.
     */
    public void archiveUploaded(final long bytes)
    {
        archiveHoursUploaded.increment();
        archiveBytesUploaded.add(bytes);
    }

    /**
     * Counts a failed archive attempt (archive package).
     *
     * @param mismatch whether it failed because a file read back differed.
     */
    public void archiveFailed(final boolean mismatch)
    {
        archiveFailures.increment();
        if (mismatch)
        {
            archiveMismatches.increment();
        }
    }

    /**
     * Counts an archived hour directory deleted by the archive's retention (archive package).
     */
    public void archiveHourRemoved()
    {
        archiveHoursRemoved.increment();
    }

    /**
     * Sets the backlog gauges (archive package, after each round of the uploader).
     *
     * @param hours sealed hours not complete in the archive.
     * @param bytes their bytes.
     */
    public void archiveBacklog(final long hours, final long bytes)
    {
        archiveBacklogHours.set(hours);
        archiveBacklogBytes.set(bytes);
    }

    /**
     * @return the gauges by name ({@code logview.archive.backlogBytes}, …): values that go up and down.
     */
    public Map<String, Long> gauges()
    {
        final Map<String, Long> m = new LinkedHashMap<>();
        m.put("logview.archive.backlogHourDirectories", archiveBacklogHours());
        m.put("logview.archive.backlogBytes", archiveBacklogBytes());
        m.put("logview.localHourDirectoriesKeptUnarchived", localHoursKeptUnarchived());
        return m;
    }

    /**
     * @return every counter by name ({@code logview.treesStored}, …), in a stable order.
     */
    public Map<String, Long> toMap()
    {
        final Map<String, Long> m = new LinkedHashMap<>();
        m.put("logview.treesStored", treesStored());
        m.put("logview.rawBytes", rawBytes());
        m.put("logview.compressedBytes", compressedBytes());
        m.put("logview.blocksSealed", blocksSealed());
        m.put("logview.idsUnparsable", idsUnparsable());
        m.put("logview.idHourOutOfRange", idHourOutOfRange());
        m.put("logview.domainsOverflow", domainsOverflow());
        m.put("logview.notIndexed", notIndexed());
        m.put("logview.writeErrors", writeErrors());
        m.put("logview.lookups", lookups());
        m.put("logview.misses", misses());
        m.put("logview.malformedLookups", malformedLookups());
        m.put("logview.lookupTimeouts", lookupTimeouts());
        m.put("logview.damage", damage());
        // not "hoursRemoved": promtool's lint reads the word "hours" in a metric name as a non-base unit
        m.put("logview.hourDirectoriesRemoved", hoursRemoved());
        search.addTo(m);
        m.put("logview.archive.hourDirectoriesUploaded", archiveHoursUploaded());
        m.put("logview.archive.uploadedBytes", archiveBytesUploaded());
        m.put("logview.archive.failures", archiveFailures());
        m.put("logview.archive.mismatches", archiveMismatches());
        m.put("logview.archive.lookups", archiveLookups());
        m.put("logview.archive.readErrors", archiveReadErrors());
        m.put("logview.archive.hourDirectoriesRemoved", archiveHoursRemoved());
        return m;
    }
}
