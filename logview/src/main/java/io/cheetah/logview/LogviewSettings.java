package io.cheetah.logview;

import java.nio.file.Path;

/**
 * The logview store's settings, one value per configuration key (the key is named in every validation error).
 * Built by the server's configuration from the {@code storage.dataDir} and {@code logview.*} keys; tests and
 * benchmarks build it directly.
 *
 * @param dataDir           {@code storage.dataDir}; files go under {@code <dataDir>/logview/<yyyyMMdd>/<HH>/}.
 * @param retentionDays     {@code logview.retentionDays}: hours older than this many days are deleted.
 * @param blockBytes        {@code logview.blockBytes}: a block is sealed (compressed, written) once it holds this
 *                          many uncompressed bytes; 4 KB to 8 MB.
 * @param sealMillis        {@code logview.sealMillis}: a block older than this is sealed at the next append, so
 *                          quiet domains reach the disk too.
 * @param maxDomainsPerHour {@code logview.maxDomainsPerHour}: id domains one writer keeps per hour; trees of further
 *                          domains are counted and not stored (client ids are untrusted).
 * @param maxSegmentsPerFile {@code logview.maxSegmentsPerFile}: index segments (4,096 ids of one client each) per
 *                          file, at most 65,536; beyond it trees are stored but not indexed, and counted.
 * @param openReaders       {@code logview.openReaders}: closed-hour files kept open for look-ups.
 * @param cleanupMinutes    {@code logview.cleanupMinutes}: how often the retention job runs.
 * @param archive           {@code logview.archive.*} and {@code logview.localRetentionHours}: where sealed hours
 *                          are archived ({@link ArchiveSettings#OFF}: nowhere).
 * @param searchIndex       {@code logview.searchIndex}: whether each sealed block's trees are summarised for the
 *                          search (off: trees are found by id only; searches find nothing written meanwhile).
 */
public record LogviewSettings(Path dataDir, int retentionDays, int blockBytes, long sealMillis, int maxDomainsPerHour,
    int maxSegmentsPerFile, int openReaders, int cleanupMinutes, ArchiveSettings archive, boolean searchIndex)
{
    /**
     * Validates every field, naming the configuration key of the first bad one.
     */
    public LogviewSettings
    {
        if (dataDir == null)
        {
            throw new IllegalArgumentException("storage.dataDir must be set");
        }
        require(retentionDays >= 1 && retentionDays <= 3650, "logview.retentionDays", "1..3650", retentionDays);
        require(blockBytes >= 4096 && blockBytes <= (8 << 20), "logview.blockBytes", "4096..8388608", blockBytes);
        require(sealMillis >= 100, "logview.sealMillis", ">= 100", sealMillis);
        require(maxDomainsPerHour >= 1, "logview.maxDomainsPerHour", ">= 1", maxDomainsPerHour);
        require(maxSegmentsPerFile >= 1 && maxSegmentsPerFile <= 65_536, "logview.maxSegmentsPerFile", "1..65536",
            maxSegmentsPerFile);
        require(openReaders >= 1, "logview.openReaders", ">= 1", openReaders);
        require(cleanupMinutes >= 1, "logview.cleanupMinutes", ">= 1", cleanupMinutes);
        if (archive == null)
        {
            throw new IllegalArgumentException("logview.archive must be set (ArchiveSettings.OFF: no archive)");
        }
    }

    /**
     * The settings without an archive.
     *
     * @param dataDir            see the record.
     * @param retentionDays      see the record.
     * @param blockBytes         see the record.
     * @param sealMillis         see the record.
     * @param maxDomainsPerHour  see the record.
     * @param maxSegmentsPerFile see the record.
     * @param openReaders        see the record.
     * @param cleanupMinutes     see the record.
     */
    public LogviewSettings(final Path dataDir, final int retentionDays, final int blockBytes, final long sealMillis,
        final int maxDomainsPerHour, final int maxSegmentsPerFile, final int openReaders, final int cleanupMinutes)
    {
        this(dataDir, retentionDays, blockBytes, sealMillis, maxDomainsPerHour, maxSegmentsPerFile, openReaders,
            cleanupMinutes, ArchiveSettings.OFF, true);
    }

    /**
     * The settings with the search index on.
     *
     * @param dataDir            see the record.
     * @param retentionDays      see the record.
     * @param blockBytes         see the record.
     * @param sealMillis         see the record.
     * @param maxDomainsPerHour  see the record.
     * @param maxSegmentsPerFile see the record.
     * @param openReaders        see the record.
     * @param cleanupMinutes     see the record.
     * @param archive            see the record.
     */
    public LogviewSettings(final Path dataDir, final int retentionDays, final int blockBytes, final long sealMillis,
        final int maxDomainsPerHour, final int maxSegmentsPerFile, final int openReaders, final int cleanupMinutes,
        final ArchiveSettings archive)
    {
        this(dataDir, retentionDays, blockBytes, sealMillis, maxDomainsPerHour, maxSegmentsPerFile, openReaders,
            cleanupMinutes, archive, true);
    }

    /**
     * @param with where sealed hours go.
     * @return these settings with that archive.
     */
    public LogviewSettings withArchive(final ArchiveSettings with)
    {
        return new LogviewSettings(dataDir, retentionDays, blockBytes, sealMillis, maxDomainsPerHour,
            maxSegmentsPerFile, openReaders, cleanupMinutes, with, searchIndex);
    }

    /**
     * @param dataDir the server's data directory.
     * @return defaults: 7 days, 256 KB blocks sealed after 10 s at the latest, 1,000 domains per hour, 65,536
     * segments per file, 64 open readers, cleanup every 10 minutes.
     */
    public static LogviewSettings defaults(final Path dataDir)
    {
        return new LogviewSettings(dataDir, 7, 256 * 1024, 10_000, 1_000, 65_536, 64, 10);
    }

    /**
     * @return {@code <dataDir>/logview}.
     */
    public Path root()
    {
        return dataDir.resolve("logview");
    }

    private static void require(final boolean ok, final String key, final String range, final long value)
    {
        if (!ok)
        {
            throw new IllegalArgumentException(key + " must be " + range + ", was " + value);
        }
    }
}
