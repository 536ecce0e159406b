package io.cheetah.server.journal;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the tree journal did, for {@code /metrics} and the log: written per batch by the ingest threads and their
 * journal writer threads, by the replay at start-up and by checkpoint rounds; read from any thread.
 */
public final class JournalCounters
{
    /** Trees written to a journal file. */
    public final LongAdder entries = new LongAdder();
    /** Bytes written to journal files (headers included). */
    public final LongAdder bytes = new LongAdder();
    /** Batch writes that failed (disk full, read-only, I/O error): their trees are not journaled. */
    public final LongAdder writeErrors = new LongAdder();
    /** Times an ingest thread waited for its journal's writer thread: all staging buffers in the disk queue. */
    public final LongAdder stalls = new LongAdder();
    /** Trees not journaled because their batch's write failed: a crash before the next checkpoint loses them. */
    public final LongAdder unjournaled = new LongAdder();
    /** Batches found damaged when reading (a torn tail after a crash, or a bad checksum). */
    public final LongAdder damagedBatches = new LongAdder();
    /** Segment files deleted because a committed checkpoint covers them. */
    public final LongAdder segmentsDeleted = new LongAdder();
    /** Trees replayed through the analyzers at start-up. */
    public final LongAdder replayed = new LongAdder();
    /** Journaled trees not replayed because their hour closed while the server was down. */
    public final LongAdder replaySkippedClosedHour = new LongAdder();
    /** Journaled frames that no longer decode (never expected: only decoded frames are journaled). */
    public final LongAdder replayUndecodable = new LongAdder();
    /** Checkpoint rounds committed with their journal cut. */
    public final LongAdder roundsCommitted = new LongAdder();
    /** Checkpoint rounds that failed to commit (a report write failed): the journal keeps their trees. */
    public final LongAdder roundsFailed = new LongAdder();
    /** Periodic checkpoints skipped because the previous round had not committed yet. */
    public final LongAdder roundsSkipped = new LongAdder();
}
