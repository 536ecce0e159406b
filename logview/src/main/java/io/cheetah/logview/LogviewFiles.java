package io.cheetah.logview;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * Where the files of one (hour, id domain, writer partition) live: {@code <root>/<yyyyMMdd>/<HH>/<stem>-p<n>.dat}
 * (blocks), {@code .idx} (index slots) and {@code .seg} (index segment table), hours in UTC. The stem is the domain
 * made safe for any file system, since domains come from clients. Used by the writer, look-ups and retention.
 */
final class LogviewFiles
{
    static final String DAT = ".dat";
    static final String IDX = ".idx";
    static final String SEG = ".seg";
    /** The search index of one header domain ({@code io.cheetah.logview.search.SearchFormat}). */
    static final String SIX = ".six";

    private static final int MAX_STEM = 120;

    private LogviewFiles()
    {
    }

    /**
     * @param root  the logview root directory.
     * @param hour  epoch hours.
     * @return {@code <root>/<yyyyMMdd>/<HH>}.
     */
    static Path hourDir(final Path root, final long hour)
    {
        final ZonedDateTime t = Instant.ofEpochMilli(hour * 3_600_000L).atZone(ZoneOffset.UTC);
        final int day = t.getYear() * 10_000 + t.getMonthValue() * 100 + t.getDayOfMonth();
        final int h = t.getHour();
        return root.resolve(Integer.toString(day)).resolve(h < 10 ? "0" + h : Integer.toString(h));
    }

    /**
     * @param day  a directory name that should be {@code yyyyMMdd}.
     * @param hour a directory name that should be {@code HH}.
     * @return epoch hours, or -1 when the names are not a logview hour.
     */
    static long parseHour(final String day, final String hour)
    {
        if (day.length() != 8 || hour.length() != 2 || !digits(day) || !digits(hour))
        {
            return -1;
        }
        try
        {
            final int y = Integer.parseInt(day.substring(0, 4));
            final int m = Integer.parseInt(day.substring(4, 6));
            final int d = Integer.parseInt(day.substring(6, 8));
            final int h = Integer.parseInt(hour);
            final ZonedDateTime t = ZonedDateTime.of(y, m, d, h, 0, 0, 0, ZoneOffset.UTC);
            return t.toEpochSecond() / 3600;
        }
        catch (final RuntimeException e)
        {
            return -1;
        }
    }

    /**
     * @param domain a client-supplied domain.
     * @param partition writer partition.
     * @return the file name without extension: the domain with every byte outside {@code [A-Za-z0-9._-]} written
     * as {@code %XX}, cut to 120 characters plus a hash when longer, then {@code -p<partition>}.
     */
    static String stem(final String domain, final int partition)
    {
        return safe(domain) + "-p" + partition;
    }

    /**
     * @param fileName a file name in an hour directory.
     * @param domain   the domain looked for.
     * @return the partition number when the file is that domain's {@code .dat} file, else -1.
     */
    static int partitionOf(final String fileName, final String domain)
    {
        return partitionOf(fileName, domain, DAT);
    }

    /**
     * @param fileName  a file name in an hour directory.
     * @param domain    the domain looked for.
     * @param extension the kind of file looked for ({@link #DAT}, {@link #SIX}).
     * @return the partition number when the file is that domain's file of that kind, else -1.
     */
    static int partitionOf(final String fileName, final String domain, final String extension)
    {
        final String prefix = safe(domain) + "-p";
        if (!fileName.startsWith(prefix) || !fileName.endsWith(extension))
        {
            return -1;
        }
        final String n = fileName.substring(prefix.length(), fileName.length() - extension.length());
        if (n.isEmpty() || n.length() > 6 || !digits(n))
        {
            return -1;
        }
        return Integer.parseInt(n);
    }

    private static String safe(final String domain)
    {
        final byte[] bytes = domain.getBytes(StandardCharsets.UTF_8);
        final StringBuilder sb = new StringBuilder(bytes.length + 8);
        for (final byte b : bytes)
        {
            final int c = b & 0xFF;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                c == '-')
            {
                sb.append((char)c);
            }
            else
            {
                sb.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            }
        }
        if (sb.length() > MAX_STEM)
        {
            long h = 1125899906842597L;
            for (final byte b : bytes)
            {
                h = 31 * h + b;
            }
            sb.setLength(MAX_STEM - 17);
            sb.append('~').append(String.format("%016x", h));
        }
        return sb.toString();
    }

    private static boolean digits(final String s)
    {
        for (int i = 0; i < s.length(); i++)
        {
            if (s.charAt(i) < '0' || s.charAt(i) > '9')
            {
                return false;
            }
        }
        return true;
    }
}
