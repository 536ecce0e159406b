package io.cheetah.replay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a server process's CPU time and context switches from Linux {@code /proc}: CPU from
 * {@code /proc/<pid>/stat} (utime + stime, in clock ticks of 1/100 s), context switches summed over every thread
 * ({@code /proc/<pid>/task/<tid>/status}, voluntary and nonvoluntary: the process-level file holds only the main
 * thread's). {@link #findListener} finds the pid that listens on a TCP port through {@code /proc/net/tcp[6]} and
 * the {@code socket:[inode]} links under {@code /proc/<pid>/fd} (needs the same user as the server). Used by the
 * replay tool's progress loop; on other systems every reading is -1.
 */
public final class ProcessProbe
{
    /** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
    public static final double TICKS_PER_SECOND = 100.0;

    private final Path proc;
    private final long pid;

    /**
     * @param proc the proc file system root (tests pass a fake tree).
     * @param pid  the process.
     */
    public ProcessProbe(final Path proc, final long pid)
    {
        this.proc = proc;
        this.pid = pid;
    }

    /**
     * @param pid the process.
     */
    public ProcessProbe(final long pid)
    {
        this(Paths.get("/proc"), pid);
    }

    /**
     * @return the process id probed.
     */
    public long pid()
    {
        return pid;
    }

    /**
     * @return user + system CPU seconds used so far, or -1 when unreadable.
     */
    public double cpuSeconds()
    {
        try
        {
            final String stat = Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"));
            // Fields after the command name (which may hold spaces) start after the last ')'.
            final String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            // f[0] is field 3 (state); utime and stime are fields 14 and 15.
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND;
        }
        catch (final IOException | RuntimeException e)
        {
            return -1;
        }
    }

    /**
     * @return voluntary + nonvoluntary context switches of all live threads, or -1 when unreadable.
     */
    public long contextSwitches()
    {
        long total = 0;
        boolean any = false;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve(Long.toString(pid)).resolve("task")))
        {
            for (final Path task : tasks)
            {
                final long v = switchesOf(task.resolve("status"));
                if (v >= 0)
                {
                    total += v;
                    any = true;
                }
            }
        }
        catch (final IOException | RuntimeException e)
        {
            final long v = switchesOf(proc.resolve(Long.toString(pid)).resolve("status"));
            return v;
        }
        return any ? total : -1;
    }

    /**
     * @return threads of the process, or -1 when unreadable.
     */
    public int threads()
    {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve(Long.toString(pid)).resolve("task")))
        {
            int n = 0;
            for (final Path ignored : tasks)
            {
                n++;
            }
            return n;
        }
        catch (final IOException | RuntimeException e)
        {
            return -1;
        }
    }

    /**
     * Finds the process listening on a local TCP port.
     *
     * @param proc the proc file system root.
     * @param port the listening port.
     * @return its pid, or -1 when not found (no such listener, or its /proc/pid/fd not readable).
     */
    public static long findListener(final Path proc, final int port)
    {
        final Set<String> inodes = new HashSet<>();
        for (final String table : new String[] {"tcp", "tcp6"})
        {
            try
            {
                for (final String line : Files.readAllLines(proc.resolve("net").resolve(table), StandardCharsets.UTF_8))
                {
                    final String[] f = line.trim().split("\\s+");
                    // sl local_address rem_address st ... inode is field 9; LISTEN is state 0A.
                    if (f.length < 10 || !"0A".equals(f[3]))
                    {
                        continue;
                    }
                    final int colon = f[1].lastIndexOf(':');
                    if (colon > 0 && Integer.parseInt(f[1].substring(colon + 1), 16) == port)
                    {
                        inodes.add("socket:[" + f[9] + "]");
                    }
                }
            }
            catch (final IOException | RuntimeException e)
            {
                // the table may not exist (no IPv6); try the other
            }
        }
        if (inodes.isEmpty())
        {
            return -1;
        }
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, p -> isNumber(p.getFileName().toString())))
        {
            for (final Path p : pids)
            {
                try (DirectoryStream<Path> fds = Files.newDirectoryStream(p.resolve("fd")))
                {
                    for (final Path fd : fds)
                    {
                        try
                        {
                            if (inodes.contains(Files.readSymbolicLink(fd).toString()))
                            {
                                return Long.parseLong(p.getFileName().toString());
                            }
                        }
                        catch (final IOException | RuntimeException e)
                        {
                            // fd closed meanwhile
                        }
                    }
                }
                catch (final IOException | RuntimeException e)
                {
                    // another user's process or gone
                }
            }
        }
        catch (final IOException e)
        {
            return -1;
        }
        return -1;
    }

    private static long switchesOf(final Path status)
    {
        try
        {
            long v = 0;
            int found = 0;
            for (final String line : Files.readAllLines(status, StandardCharsets.UTF_8))
            {
                final String l = line.toLowerCase(Locale.ROOT);
                if (l.startsWith("voluntary_ctxt_switches:") || l.startsWith("nonvoluntary_ctxt_switches:"))
                {
                    v += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    found++;
                }
            }
            return found > 0 ? v : -1;
        }
        catch (final IOException | RuntimeException e)
        {
            return -1;
        }
    }

    private static boolean isNumber(final String s)
    {
        if (s.isEmpty())
        {
            return false;
        }
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
