package io.cheetah.analysis;

/**
 * An analyzer's priority under overload. The dispatcher admits a tree to an analyzer only while the analyzer's
 * ring has at least the level's free capacity (HIGH: one slot, MID: a sixteenth, LOW: a quarter, configurable),
 * so loss hits LOW analyzers first and HIGH ones last.
 */
public enum Level
{
    /** Admitted while one slot is free: reports users rely on (transaction, event, heartbeat, logview, state). */
    HIGH,
    /** Admitted while a sixteenth of the ring is free. */
    MID,
    /** Admitted while a quarter of the ring is free. */
    LOW
}
