package io.cheetah.server.journal;

import java.nio.file.Path;

/**
 * How the tree journal is kept ({@code storage.journal.*} in config/server.yaml). Read once at start-up.
 *
 * @param dir          where the journals live ({@code <storage.dataDir>/journal}).
 * @param flushMillis  longest time a journaled tree waits in an ingest thread's buffer before it is written to the
 *                     file (the OS then holds it: a process crash no longer loses it).
 * @param segmentBytes a segment file is closed and a new one begun once it holds this many bytes.
 * @param bufferBytes  one of an ingest thread's staging buffers ({@code JournalWriter.STAGES} of them); a full one
 *                     is handed to the journal's writer thread at once.
 */
public record JournalSettings(Path dir, int flushMillis, long segmentBytes, int bufferBytes)
{
    /**
     * Checks the values.
     */
    public JournalSettings
    {
        if (flushMillis < 1 || flushMillis > 10_000)
        {
            throw new IllegalArgumentException("storage.journal.flushMillis: 1..10000, got " + flushMillis);
        }
        if (segmentBytes < (1 << 20))
        {
            throw new IllegalArgumentException("storage.journal.segmentMegabytes: at least 1, got " +
                (segmentBytes >> 20));
        }
        if (bufferBytes < JournalFormat.BATCH_HEADER + JournalFormat.ENTRY_HEADER + 1024)
        {
            throw new IllegalArgumentException("journal buffer too small: " + bufferBytes);
        }
    }
}
