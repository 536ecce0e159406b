package io.cheetah.logview.archive;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code _ARCHIVED} marker of an archived hour, written last (to a temporary name, then renamed), so that an
 * hour without it, or with a torn one, is never taken as complete. It lists every file with the length and CRC32C
 * that were verified against the archive's copy:
 * <pre>
 * cheetah-logview-archive 1
 * hour 498699
 * file 1a2b3c4d 1048576 pay-p0.dat      (crc32c in hex, length, name: the rest of the line)
 * ...
 * end 3
 * </pre>
 *
 * @param hour  epoch hours of the archived hour.
 * @param files name to length and checksum, in the order written.
 */
record Manifest(long hour, Map<String, Entry> files)
{
    /** The marker's file name in an archived hour directory. */
    static final String NAME = "_ARCHIVED";
    private static final String HEADER = "cheetah-logview-archive 1";

    Manifest
    {
        files = Collections.unmodifiableMap(new LinkedHashMap<>(files));
    }

    /**
     * @return the marker's bytes.
     */
    byte[] format()
    {
        final StringBuilder sb = new StringBuilder(64 + files.size() * 64);
        sb.append(HEADER).append('\n').append("hour ").append(hour).append('\n');
        for (final Entry e : files.values())
        {
            sb.append("file ").append(String.format("%08x", e.crc32c())).append(' ').append(e.length()).append(' ')
                .append(e.name()).append('\n');
        }
        sb.append("end ").append(files.size()).append('\n');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param bytes a marker's bytes.
     * @return the manifest, or null when the bytes are not a whole marker (torn, damaged or foreign).
     */
    static Manifest parse(final byte[] bytes)
    {
        final String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
        if (lines.length < 4 || !lines[0].equals(HEADER) || !lines[1].startsWith("hour ") ||
            !lines[lines.length - 1].isEmpty())
        {
            return null;
        }
        try
        {
            final long hour = Long.parseLong(lines[1].substring(5));
            final Map<String, Entry> files = new LinkedHashMap<>();
            for (int i = 2; i < lines.length - 2; i++)
            {
                final String[] f = lines[i].split(" ", 4);
                if (f.length != 4 || !f[0].equals("file") || f[3].isEmpty())
                {
                    return null;
                }
                files.put(f[3], new Entry(f[3], Long.parseLong(f[2]), (int)Long.parseLong(f[1], 16)));
            }
            return lines[lines.length - 2].equals("end " + files.size()) ? new Manifest(hour, files) : null;
        }
        catch (final NumberFormatException e)
        {
            return null;
        }
    }

    /**
     * @param lengths a local hour's files, name to length.
     * @return whether the manifest lists exactly these files with these lengths.
     */
    boolean sameFiles(final Map<String, Long> lengths)
    {
        if (lengths.size() != files.size())
        {
            return false;
        }
        for (final Map.Entry<String, Long> l : lengths.entrySet())
        {
            final Entry e = files.get(l.getKey());
            if (e == null || e.length() != l.getValue())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * One archived file.
     *
     * @param name   its name in the hour directory.
     * @param length its length in bytes.
     * @param crc32c CRC32C of all its bytes.
     */
    record Entry(String name, long length, int crc32c)
    {
    }
}
