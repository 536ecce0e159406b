package io.cheetah.logview;

/**
 * Where and how long sealed logview hours are archived ({@code logview.archive.*} and
 * {@code logview.localRetentionHours}); see package {@code io.cheetah.logview.archive}. With an archive, a local hour
 * is deleted once the archive holds it whole (every file's length and CRC32C verified) and it is older than
 * {@code localRetentionHours}, or once it is older than the archive's own retention; never before, whatever
 * {@code logview.retentionDays} says (that key then no longer applies to local hours).
 *
 * @param uri                 {@code logview.archive.uri}: a Hadoop file system URI and directory
 *                            ({@code hdfs://namenode:8020/cheetah/logview}, {@code file:///mnt/nfs/logview}, …);
 *                            empty: no archive.
 * @param localRetentionHours {@code logview.localRetentionHours}: hours an archived hour is also kept on the local
 *                            disk (look-ups are faster there).
 * @param retentionDays       {@code logview.archive.retentionDays}: archived hours older than this are deleted.
 * @param scanMillis          {@code logview.archive.scanSeconds}: how often the uploader looks for sealed hours.
 * @param retryMinMillis      {@code logview.archive.retryMinSeconds}: the first wait after a failure; doubled at
 *                            each failure in a row...
 * @param retryMaxMillis      {@code logview.archive.retryMaxSeconds}: ...up to this.
 */
public record ArchiveSettings(String uri, int localRetentionHours, int retentionDays, long scanMillis,
    long retryMinMillis, long retryMaxMillis)
{
    /** No archive. */
    public static final ArchiveSettings OFF = new ArchiveSettings("", 24, 180, 60_000, 5_000, 600_000);

    /**
     * Validates every field, naming the configuration key of the first bad one.
     */
    public ArchiveSettings
    {
        if (uri == null)
        {
            throw new IllegalArgumentException("logview.archive.uri must be set (empty: no archive)");
        }
        uri = uri.strip();
        if (!uri.isEmpty())
        {
            final java.net.URI parsed = parse(uri);
            if (parsed.getScheme() == null || parsed.getPath() == null || !parsed.getPath().startsWith("/"))
            {
                throw new IllegalArgumentException("logview.archive.uri must be scheme://[authority]/absolute/path " +
                    "(e.g. hdfs://namenode:8020/cheetah/logview or file:///mnt/logview), was " + uri);
            }
        }
        require(localRetentionHours >= 1 && localRetentionHours <= 87_600, "logview.localRetentionHours",
            "1..87600", localRetentionHours);
        require(retentionDays >= 1 && retentionDays <= 36_500, "logview.archive.retentionDays", "1..36500",
            retentionDays);
        require(scanMillis >= 100, "logview.archive.scanSeconds", ">= 1", scanMillis / 1000);
        require(retryMinMillis >= 100, "logview.archive.retryMinSeconds", ">= 1", retryMinMillis / 1000);
        require(retryMaxMillis >= retryMinMillis, "logview.archive.retryMaxSeconds",
            ">= logview.archive.retryMinSeconds", retryMaxMillis / 1000);
    }

    /**
     * @return whether an archive is configured.
     */
    public boolean enabled()
    {
        return !uri.isEmpty();
    }

    private static java.net.URI parse(final String uri)
    {
        try
        {
            return new java.net.URI(uri);
        }
        catch (final java.net.URISyntaxException e)
        {
            throw new IllegalArgumentException("logview.archive.uri is not a URI: " + e.getMessage(), e);
        }
    }

    private static void require(final boolean ok, final String key, final String range, final long value)
    {
        if (!ok)
        {
            throw new IllegalArgumentException(key + " must be " + range + ", was " + value);
        }
    }
}
