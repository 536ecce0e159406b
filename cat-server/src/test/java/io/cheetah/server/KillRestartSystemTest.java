package io.cheetah.server;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.state.StateAnalyzer;
import io.cheetah.server.state.StateReport;
import io.cheetah.server.storage.checkpoint.CheckpointStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13.1: a server process is killed with SIGKILL (no admin checkpoint, no shutdown hook) while checkpoint
 * rounds run every second, after four connections sent 8,000 trees through both ingest threads; it is restarted on
 * the same data directory (its embedded MariaDB, left running by the killed process, is stopped and started again).
 * The restarted server replays the journaled trees the last committed checkpoint did not hold and reports exactly
 * the 8,000: none lost, none counted twice. It keeps counting, the trees sent last are found by message id, and
 * the replay is counted in /metrics.
 */
@Tag("fault")
class KillRestartSystemTest
{
    private static final String DOMAIN = "kill-test";
    private static final Pattern PORTS = Pattern.compile("cheetah: tcp port (\\d+), http port (\\d+)");
    private static final int CONNECTIONS = 4;
    private static final int PER_CONNECTION = 2_000;
    /** Trees of each of the last two connections sent while one last checkpoint runs. */
    private static final int TAIL = 300;
    /** Trees sent after every checkpoint. */
    private static final int LAST = 100;

    @Test
    void killedServerLosesNoTreeItHadReadAndCountsNoneTwice(@TempDir final Path dir) throws Exception
    {
        final long timestamp = System.currentTimeMillis();
        final long hour = timestamp - Math.floorMod(timestamp, 3_600_000L);
        final HttpClient http = HttpClient.newHttpClient();
        final int sent = CONNECTIONS * PER_CONNECTION;

        final Server first = Server.start(dir);
        try
        {
            final List<Thread> senders = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++)
            {
                final int from = c * PER_CONNECTION;
                final int count = c < CONNECTIONS - 2 ? PER_CONNECTION :
                    c == CONNECTIONS - 2 ? PER_CONNECTION - TAIL : PER_CONNECTION - TAIL - LAST;
                final Thread t = new Thread(() -> sendPaced(first, timestamp, from, count));
                t.start();
                senders.add(t);
            }
            // admin checkpoints back to back while the trees arrive, so rounds cut through every stream
            final java.util.concurrent.atomic.AtomicBoolean sending = new java.util.concurrent.atomic.AtomicBoolean(true);
            final Thread checkpointer = new Thread(() ->
            {
                try
                {
                    while (sending.get())
                    {
                        first.checkpoint(http);
                    }
                }
                catch (final Exception e)
                {
                    throw new IllegalStateException(e);
                }
            });
            checkpointer.start();
            for (final Thread t : senders)
            {
                t.join();
            }
            sending.set(false);
            checkpointer.join();
            // two more streams, with one more checkpoint cutting through them, then trees no checkpoint holds
            final Thread tail1 = new Thread(() -> sendPaced(first, timestamp, (CONNECTIONS - 1) * PER_CONNECTION - TAIL,
                TAIL));
            final Thread tail2 = new Thread(() -> sendPaced(first, timestamp, sent - TAIL - LAST, TAIL));
            tail1.start();
            tail2.start();
            Thread.sleep(60);
            first.checkpoint(http);
            tail1.join();
            tail2.join();
            sendPaced(first, timestamp, sent - LAST, LAST);
            first.awaitProcessed(http, sent);
            // the server has read every tree; past storage.journal.flushMillis they are out of its memory
            Thread.sleep(600);
            final String metrics = first.metrics(http);
            assertThat(counter(metrics, "cheetah_checkpoint_rounds_total\\{result=\"committed\"\\}"))
                .as("checkpoint rounds ran while the trees arrived").isGreaterThan(1);
        }
        finally
        {
            first.process.destroyForcibly(); // SIGKILL
            first.process.waitFor(30, TimeUnit.SECONDS);
        }
        final long checkpointed = checkpointedCount(dir, hour);
        assertThat(checkpointed).as("the last trees are not in the last checkpoint").isLessThanOrEqualTo(sent - LAST);
        System.out.println("KillRestartSystemTest: SIGKILL with " + checkpointed + " of " + sent +
            " trees in the last committed checkpoint; the rest must come back from the journal");

        final Server second = Server.start(dir);
        try
        {
            final String metrics = second.metrics(http);
            final long replayed = counter(metrics, "cheetah_journal_replayed_trees_total");
            second.checkpoint(http);
            final long restored = checkpointedCount(dir, hour);
            System.out.println("KillRestartSystemTest: restarted, replayed " + replayed + " journaled trees, " +
                "reports " + restored + " of " + sent + " (lost: " + (sent - restored) + ")");
            assertThat(restored).as("every tree read before the kill, each once").isEqualTo(sent);
            assertThat(replayed).as("the journal replayed what the checkpoint lacked")
                .isEqualTo(sent - checkpointed);
            assertThat(second.lookup(http, timestamp, sent - 1)).as("the last tree is found by its id").isEqualTo(200);
            sendPaced(second, timestamp, sent, 50);
            second.awaitProcessed(http, replayed + 50);
            second.checkpoint(http);
            assertThat(checkpointedCount(dir, hour)).as("and kept counting").isEqualTo(sent + 50);
        }
        finally
        {
            second.process.destroy(); // SIGTERM: graceful, exit 0, stops its MariaDB
            final boolean exited = second.process.waitFor(60, TimeUnit.SECONDS);
            if (!exited)
            {
                second.process.destroyForcibly();
            }
            assertThat(exited).isTrue();
        }
        assertThat(second.process.exitValue()).isZero();
        // the final checkpoint on SIGTERM holds everything too
        assertThat(checkpointedCount(dir, hour)).isEqualTo(sent + 50);
    }

    private static long counter(final String metrics, final String series)
    {
        return FaultTraffic.value(metrics, series);
    }

    /** Sends trees in bursts of 100 with short pauses, so several checkpoint rounds fall among them. */
    private static void sendPaced(final Server server, final long timestamp, final int from, final int count)
    {
        try
        {
            for (int at = from; at < from + count; at += 100)
            {
                send(server, timestamp, at, Math.min(100, from + count - at));
                Thread.sleep(50);
            }
        }
        catch (final Exception e)
        {
            throw new IllegalStateException(e);
        }
    }

    private static int send(final Server server, final long timestamp, final int from, final int count)
        throws Exception
    {
        final long hourIndex = timestamp / 3_600_000L;
        try (Socket socket = new Socket("127.0.0.1", server.tcpPort))
        {
            final OutputStream out = socket.getOutputStream();
            for (int i = from; i < from + count; i++)
            {
                final TransactionMessage root = new TransactionMessage("KillTx", "op", "0", "", timestamp, 5);
                out.write(Nt1Encoder.encode(new MessageTree().domain(DOMAIN).hostname("host").ipAddress("127.0.0.1")
                    .messageId(DOMAIN + "-7f000001-" + hourIndex + "-" + i).root(root)));
            }
            out.flush();
        }
        return from + count;
    }

    /** Total count of KillTx in the transaction checkpoint of the hour, read from the data directory. */
    private static long checkpointedCount(final Path dir, final long hour) throws Exception
    {
        final Map<String, ReportFormat> formats = new HashMap<>();
        for (final AnalyzerType t : AnalyzerCatalog.builtIn())
        {
            formats.put(t.name(), t.format());
        }
        formats.put(StateReport.ANALYZER, StateAnalyzer.FORMAT);
        final List<Report> reports = new CheckpointStore(dir.resolve("checkpoints"), formats).load("transaction", hour);
        long total = 0;
        for (final Report r : reports)
        {
            if (!r.domain().equals(DOMAIN))
            {
                continue;
            }
            final StringBuilder xml = new StringBuilder();
            formats.get("transaction").writeXml(r, ReportQuery.all(hour), xml);
            final Matcher m = Pattern.compile("<type id=\"KillTx\" totalCount=\"(\\d+)\"").matcher(xml);
            if (m.find())
            {
                total += Long.parseLong(m.group(1));
            }
        }
        return total;
    }

    /** A server process on the test classpath. */
    private static final class Server
    {
        final Process process;
        final int tcpPort;
        final int httpPort;

        private Server(final Process process, final int tcpPort, final int httpPort)
        {
            this.process = process;
            this.tcpPort = tcpPort;
            this.httpPort = httpPort;
        }

        static Server start(final Path dir) throws Exception
        {
            final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
            for (final String set : new String[] {"tcp.host=127.0.0.1", "tcp.port=0", "http.host=127.0.0.1",
                "http.port=0", "pipeline.ringSize=1024", "storage.checkpointSeconds=3600", "tcp.workers=2",
                "storage.dataDir=" + dir, "storage.timeZone=UTC", "storage.serverId=kill-test"})
            {
                command.add("--set");
                command.add(set);
            }
            final Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.PIPE).start();
            final BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8));
            final long deadline = System.currentTimeMillis() + 120_000;
            String line;
            while (System.currentTimeMillis() < deadline && (line = out.readLine()) != null)
            {
                System.out.println("[server] " + line);
                final Matcher m = PORTS.matcher(line);
                if (m.find())
                {
                    final Thread pump = new Thread(() ->
                    {
                        try
                        {
                            out.lines().forEach(l -> System.out.println("[server] " + l));
                        }
                        catch (final java.io.UncheckedIOException e)
                        {
                            // the process was killed: its output ends here
                        }
                    });
                    pump.setDaemon(true);
                    pump.start();
                    return new Server(p, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
                }
            }
            p.destroyForcibly();
            throw new AssertionError("the server process did not start (exit " + (p.isAlive() ? "-" :
                p.exitValue()) + ")");
        }

        void checkpoint(final HttpClient http) throws Exception
        {
            final HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort +
                "/cat/admin/checkpoint")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }

        String metrics(final HttpClient http) throws Exception
        {
            return FaultTraffic.metrics(httpPort);
        }

        int lookup(final HttpClient http, final long timestamp, final int index) throws Exception
        {
            final long hourIndex = timestamp / 3_600_000L;
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/cat/r/m/" + DOMAIN +
                "-7f000001-" + hourIndex + "-" + index + "?raw=true")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
        }

        void awaitProcessed(final HttpClient http, final long trees) throws Exception
        {
            // processed by the transaction analyzer, not just received: a tree is counted as received before it is
            // published onto its ring, so a checkpoint asked for in between would miss it
            final Pattern received =
                Pattern.compile("(?m)^cheetah_analyzer_processed_total\\{analyzer=\"transaction\"\\} (\\d+)");
            final long deadline = System.currentTimeMillis() + 20_000;
            long seen = -1;
            while (System.currentTimeMillis() < deadline)
            {
                final String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort +
                    "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
                final Matcher m = received.matcher(metrics);
                seen = m.find() ? Long.parseLong(m.group(1)) : -1;
                if (seen >= trees)
                {
                    return;
                }
                Thread.sleep(20);
            }
            throw new AssertionError("the transaction analyzer processed " + seen + " trees, expected " + trees);
        }
    }
}
