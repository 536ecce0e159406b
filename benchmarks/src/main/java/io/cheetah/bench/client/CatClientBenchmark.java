package io.cheetah.bench.client;

import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.client.CatClient;
import io.cheetah.client.Transaction;
import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.client.transport.SendCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Cost on the calling thread of one std request (a {@code URL} transaction holding three nested transactions,
 * {@code Cache.redis}, {@code SQL} and {@code Call}, and five events), completed and handed to the sender: our client
 * SDK ({@link #cheetah}) and CAT's own Java client 3.1.0 from Maven Central ({@link #cat310}) doing the same calls,
 * side by side in one run. Each talks to its own {@link LoopbackSink} (a router answer and a TCP sink that discards)
 * and its sender thread runs as in production. Run with {@code -prof gc} for the bytes allocated per request (all
 * threads: the sender's share included).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CatClientBenchmark extends BenchmarkDefaults
{
    /** Our client against a loopback sink. */
    @State(Scope.Benchmark)
    public static class Cheetah
    {
        LoopbackSink sink;
        CatClient client;

        @Setup(Level.Trial)
        public void start() throws IOException
        {
            sink = new LoopbackSink();
            client = CatClient.start(ClientConfig.builder().domain("bench").ip("10.0.0.1").hostname("bench-host")
                .servers(List.of(new ServerAddress("127.0.0.1", sink.tcpPort(), sink.httpPort()))).build());
        }

        @TearDown(Level.Trial)
        public void stop() throws IOException
        {
            client.close();
            sink.close();
            final SendCounters.Snapshot s = client.counters().snapshot();
            System.out.println("\ncheetah client: produced=" + s.produced() + " sent=" + s.sent() + " queueFull=" +
                s.queueFull() + " dropped=" + s.dropped() + " bytes received=" + sink.bytes());
        }
    }

    /** CAT's Java client 3.1.0 against a loopback sink, configured by a client.xml in a temporary CAT_HOME. */
    @State(Scope.Benchmark)
    public static class Cat310
    {
        LoopbackSink sink;
        Path home;

        @Setup(Level.Trial)
        public void start() throws IOException
        {
            sink = new LoopbackSink();
            home = Files.createTempDirectory("cat-home");
            final Path xml = home.resolve("client.xml");
            Files.writeString(xml, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<config mode=\"client\">\n" +
                "  <servers>\n    <server ip=\"127.0.0.1\" port=\"" + sink.tcpPort() + "\" http-port=\"" +
                sink.httpPort() + "\"/>\n  </servers>\n</config>\n");
            System.setProperty("CAT_HOME", home + File.separator);
            com.dianping.cat.Cat.initialize(xml.toFile());
        }

        @TearDown(Level.Trial)
        public void stop() throws IOException
        {
            com.dianping.cat.Cat.destroy();
            sink.close();
            System.out.println("\nCAT 3.1.0 client: bytes received=" + sink.bytes());
        }
    }

    /**
     * The calling thread's own CPU time per request, per iteration: the sender, the sink and the kernel's loopback
     * share two cores with the caller, so the wall time per call (JMH's score) also counts the time the caller
     * waited for a core. Printed as {@code caller CPU per request: N ns}.
     */
    @State(Scope.Thread)
    public static class CallerCpu
    {
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
        long requests;
        private long cpuStart;

        @Setup(Level.Iteration)
        public void begin()
        {
            requests = 0;
            cpuStart = THREADS.getCurrentThreadCpuTime();
        }

        @TearDown(Level.Iteration)
        public void end()
        {
            final long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
            System.out.printf("%ncaller CPU per request: %.0f ns (%d requests)%n", (double)cpu / requests, requests);
        }
    }

    @Benchmark
    public Transaction cheetah(final Cheetah state, final CallerCpu cpu)
    {
        cpu.requests++;
        final CatClient client = state.client;
        final Transaction root = client.newTransaction("URL", "/order/create");
        client.logEvent("URL", "URL.Server");
        final Transaction cache = client.newTransaction("Cache.redis", "get");
        client.logEvent("Cache.redis.server", "10.0.0.2:6379");
        cache.complete();
        final Transaction sql = client.newTransaction("SQL", "insert order");
        client.logEvent("SQL.Method", "INSERT");
        client.logEvent("SQL.Database", "jdbc:mysql://db/orders");
        sql.complete();
        final Transaction call = client.newTransaction("Call", "payment.charge");
        client.logEvent("Call.server", "10.0.0.3");
        call.complete();
        root.complete();
        return root;
    }

    @Benchmark
    public com.dianping.cat.message.Transaction cat310(final Cat310 state, final CallerCpu cpu)
    {
        cpu.requests++;
        final com.dianping.cat.message.Transaction root = com.dianping.cat.Cat.newTransaction("URL", "/order/create");
        com.dianping.cat.Cat.logEvent("URL", "URL.Server");
        final com.dianping.cat.message.Transaction cache = com.dianping.cat.Cat.newTransaction("Cache.redis", "get");
        com.dianping.cat.Cat.logEvent("Cache.redis.server", "10.0.0.2:6379");
        cache.setStatus(com.dianping.cat.message.Message.SUCCESS);
        cache.complete();
        final com.dianping.cat.message.Transaction sql = com.dianping.cat.Cat.newTransaction("SQL", "insert order");
        com.dianping.cat.Cat.logEvent("SQL.Method", "INSERT");
        com.dianping.cat.Cat.logEvent("SQL.Database", "jdbc:mysql://db/orders");
        sql.setStatus(com.dianping.cat.message.Message.SUCCESS);
        sql.complete();
        final com.dianping.cat.message.Transaction call = com.dianping.cat.Cat.newTransaction("Call", "payment.charge");
        com.dianping.cat.Cat.logEvent("Call.server", "10.0.0.3");
        call.setStatus(com.dianping.cat.message.Message.SUCCESS);
        call.complete();
        root.setStatus(com.dianping.cat.message.Message.SUCCESS);
        root.complete();
        return root;
    }
}
