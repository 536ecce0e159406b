package io.cheetah.bench.client;

import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.client.CatClient;
import io.cheetah.client.Transaction;
import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.client.transport.FrameChannel;
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

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Cost on the calling thread of one typical request as the client SDK records it: a root transaction holding three
 * nested transactions and five events, completed, handed to the sender. The sender thread runs as in production
 * (encoding NT1 frames, batching) but writes into a sink that discards, so no network is measured. Run with
 * {@code -prof gc} to see bytes allocated per request.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CatClientBenchmark extends BenchmarkDefaults
{
    private CatClient client;

    @Setup(Level.Trial)
    public void start()
    {
        final FrameChannel.Factory nullSink = (endpoint, timeout) -> new FrameChannel()
        {
            @Override
            public void write(final byte[] bytes, final int offset, final int length)
            {
            }

            @Override
            public boolean isAlive()
            {
                return true;
            }

            @Override
            public InetSocketAddress endpoint()
            {
                return endpoint;
            }

            @Override
            public void close()
            {
            }
        };
        client = CatClient.start(ClientConfig.builder().domain("bench").ip("10.0.0.1").hostname("bench-host")
            .servers(List.of(new ServerAddress("127.0.0.1", 2280, 1))).routerTimeoutMillis(50).build(), nullSink);
    }

    @TearDown(Level.Trial)
    public void stop()
    {
        client.close();
        final SendCounters.Snapshot s = client.counters().snapshot();
        System.out.println("\nclient counters: produced=" + s.produced() + " sent=" + s.sent() + " queueFull=" +
            s.queueFull() + " dropped=" + s.dropped());
    }

    @Benchmark
    public Transaction requestWithThreeNestedTransactionsAndFiveEvents()
    {
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
}
