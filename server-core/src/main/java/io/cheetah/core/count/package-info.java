/**
 * Counters that hot threads add to without an atomic instruction and {@code /metrics} reads at any time
 * ({@link io.cheetah.core.count.SharedCount}: one lane per writer thread, summed by the reader). Used by the
 * server's ingest and analyzer counters and by the logview's.
 */
package io.cheetah.core.count;
