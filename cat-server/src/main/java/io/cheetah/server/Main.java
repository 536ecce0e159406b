package io.cheetah.server;

import io.cheetah.server.config.ConfigException;
import io.cheetah.server.config.ConfigLoader;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.metrics.CollectorChoice;
import io.cheetah.server.period.Clock;
import io.cheetah.server.storage.mysql.SchemaTooNewException;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Starts the server in the foreground: {@code java -jar cheetah-server.jar [--config FILE] [--set key=value]...}.
 * A configuration error prints the message (naming the key) and exits 2. SIGTERM or SIGINT shut down gracefully
 * (stop accepting, drain, checkpoint, close the logview store and storage, which stops the
 * embedded MariaDB) and exit 0. A database schema newer than this code stops start-up with exit 2.
 */
public final class Main
{
    private Main()
    {
    }

    /**
     * @param args command line.
     * @throws Exception when the server cannot start.
     */
    public static void main(final String[] args) throws Exception
    {
        final ServerConfig config;
        try
        {
            config = parse(args);
        }
        catch (final ConfigException e)
        {
            System.err.println("cheetah: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        final FullServer full;
        try
        {
            full = FullServer.start(config, Clock.SYSTEM, true);
        }
        catch (final ConfigException e)
        {
            System.err.println("cheetah: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        catch (final SchemaTooNewException e)
        {
            System.err.println("cheetah: " + e.getMessage());
            System.exit(2);
            return;
        }
        catch (final java.io.IOException e)
        {
            System.err.println("cheetah: cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        final CheetahServer server = full.server();
        final CountDownLatch stopped = new CountDownLatch(1);
        // Nothing but a signal (TERM, INT, HUP) ends this process once it runs, so the hook owns the exit status: the
        // JVM would report 143 for SIGTERM, but a drained and checkpointed server stopped as asked, so it halts with
        // 0 once everything is saved (halt skips the later hooks; slf4j-simple has none to flush).
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            full.close();
            stopped.countDown();
            Runtime.getRuntime().halt(0);
        }, "cheetah-shutdown"));
        System.out.println("cheetah: tcp port " + server.tcpPort() + ", http port " + server.httpPort());
        final String collector = CollectorChoice.adviceForThisJvm();
        if (collector != null)
        {
            System.err.println("cheetah: warning: " + collector);
        }
        stopped.await();
    }

    static ServerConfig parse(final String[] args)
    {
        // files first, then overrides, whatever their order on the command line
        final ConfigLoader loader = new ConfigLoader();
        final java.util.List<String> sets = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++)
        {
            final String a = args[i];
            if ("--config".equals(a) && i + 1 < args.length)
            {
                loader.file(Path.of(args[++i]));
            }
            else if ("--set".equals(a) && i + 1 < args.length)
            {
                sets.add(args[++i]);
            }
            else if (a.startsWith("--set="))
            {
                sets.add(a.substring("--set=".length()));
            }
            else if (a.startsWith("--config="))
            {
                loader.file(Path.of(a.substring("--config=".length())));
            }
            else
            {
                throw new ConfigException(a + ": unknown argument (use --config FILE and --set key=value)");
            }
        }
        loader.set(sets);
        return loader.load();
    }
}
