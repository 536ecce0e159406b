package io.cheetah.distribution;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server started as its own process from a start script ({@code bin/cheetah-server} of an installed release, or
 * the checkout's {@code scripts/cat-server}) on free loopback ports, stopped with SIGTERM as systemd stops it.
 */
final class InstalledServer implements AutoCloseable
{
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final Path log;
    private final int tcpPort;
    private final int httpPort;

    private InstalledServer(final Process process, final Path log, final int tcpPort, final int httpPort)
    {
        this.process = process;
        this.log = log;
        this.tcpPort = tcpPort;
        this.httpPort = httpPort;
    }

    /**
     * Starts the script and waits until {@code /metrics} answers.
     *
     * @param workDir the server's working directory (where a relative {@code storage.dataDir} lands).
     * @param command the start script and its arguments; {@code --set} options for loopback ports are appended.
     * @return the running server.
     * @throws Exception when it exits or does not answer within three minutes.
     */
    static InstalledServer start(final Path workDir, final List<String> command) throws Exception
    {
        final int tcp = freePort();
        final int http = freePort();
        final List<String> full = new ArrayList<>(command);
        full.addAll(List.of("--set", "tcp.host=127.0.0.1", "--set", "tcp.port=" + tcp,
            "--set", "http.host=127.0.0.1", "--set", "http.port=" + http));
        Files.createDirectories(workDir);
        final Path log = workDir.resolve("server.log");
        final Process process = ReleaseInstall.builder(workDir, full).redirectOutput(log.toFile()).start();
        final InstalledServer server = new InstalledServer(process, log, tcp, http);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline)
        {
            if (!process.isAlive())
            {
                throw new AssertionError("the server exited with " + process.exitValue() + ":\n" + server.log());
            }
            try
            {
                if (server.get("/metrics").statusCode() == 200)
                {
                    return server;
                }
            }
            catch (final IOException notYet)
            {
                // not listening yet
            }
            Thread.sleep(250);
        }
        server.close();
        throw new AssertionError("the server did not answer /metrics within 3 minutes:\n" + server.log());
    }

    static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    int tcpPort()
    {
        return tcpPort;
    }

    int httpPort()
    {
        return httpPort;
    }

    long pid()
    {
        return process.pid();
    }

    String base()
    {
        return "http://127.0.0.1:" + httpPort;
    }

    HttpResponse<String> get(final String pathAndQuery) throws IOException, InterruptedException
    {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base() + pathAndQuery)).timeout(Duration.ofSeconds(30))
            .build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * @param family a metric family of {@code /metrics}.
     * @return the sum of its samples (all label sets).
     */
    double metric(final String family) throws IOException, InterruptedException
    {
        double sum = 0;
        for (final String line : get("/metrics").body().split("\n"))
        {
            if (line.startsWith(family + " ") || line.startsWith(family + "{"))
            {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    String log() throws IOException
    {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /**
     * Sends SIGTERM (the start scripts {@code exec} java, so the signal reaches the server) and waits.
     *
     * @return the exit code.
     * @throws Exception when it does not stop within two minutes.
     */
    int stop() throws Exception
    {
        process.destroy();
        if (!process.waitFor(2, TimeUnit.MINUTES))
        {
            throw new AssertionError("the server did not stop within 2 minutes of SIGTERM:\n" + log());
        }
        return process.exitValue();
    }

    @Override
    public void close()
    {
        ReleaseInstall.stop(process, 60);
    }
}
