package io.cheetah.bench.dispatch;

import io.cheetah.codec.FrameWriter;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.config.ConfigLoader;
import io.cheetah.server.dispatch.AnalyzerSlot;
import io.cheetah.workload.StdMix;
import io.cheetah.workload.Variant;

import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A runnable end-to-end harness (Aeron's EmbeddedThroughput style): starts a server on loopback with no-op
 * analyzers behind the six default prefilters, streams pre-encoded std-mix frames to it from sender threads over
 * TCP, and prints trees/s every second, then the average. Everything else is the real pipeline: Netty framing,
 * NT1 decode, dispatch, rings, consumers.
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar io.cheetah.bench.dispatch.LoopbackIngest \
 *       [seconds] [senders] [--set k=v]...
 * </pre>
 */
public final class LoopbackIngest
{
    private LoopbackIngest()
    {
    }

    /**
     * @param args seconds (10), sender connections (2), then server overrides as {@code --set key=value}.
     * @throws Exception on start-up failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        final int senders = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        final ConfigLoader loader = new ConfigLoader().set(List.of("tcp.host=127.0.0.1", "tcp.port=0",
            "http.host=127.0.0.1", "http.port=0"));
        for (int i = 2; i + 1 < args.length; i += 2)
        {
            loader.set(args[i + 1]);
        }
        try (CheetahServer server = CheetahServer.builder(loader.load()).analyzers(NoOpAnalyzers.defaults())
            .start())
        {
            final StdMix mix = StdMix.builder().seed(42).variant(Variant.STD_MIX).heartbeats(false).build();
            final FrameWriter out = new FrameWriter(8 << 20);
            int frames = 0;
            while (frames < 4096)
            {
                mix.next(out);
                frames++;
            }
            final byte[] batch = out.toByteArray();
            System.out.printf("loopback: %d senders, %d frames of %d bytes on average per batch, %d s%n", senders,
                frames, batch.length / frames, seconds);

            final AtomicBoolean running = new AtomicBoolean(true);
            final List<Thread> threads = new ArrayList<>();
            for (int s = 0; s < senders; s++)
            {
                final Thread t = new Thread(() ->
                {
                    try (Socket socket = new Socket("127.0.0.1", server.tcpPort()))
                    {
                        socket.setSendBufferSize(1 << 20);
                        final OutputStream o = socket.getOutputStream();
                        while (running.get())
                        {
                            o.write(batch);
                        }
                    }
                    catch (final Exception e)
                    {
                        System.err.println("sender: " + e);
                    }
                }, "sender-" + s);
                t.start();
                threads.add(t);
            }
            final long start = server.counters().treesReceived.sum();
            long last = start;
            for (int i = 1; i <= seconds; i++)
            {
                Thread.sleep(1000);
                final long now = server.counters().treesReceived.sum();
                System.out.printf("%3d s  %,12d trees/s  dropped %,d  bad %,d  allocated trees %,d%n", i, now - last,
                    dropped(server), server.counters().badFramesTotal(), server.counters().treesAllocated.sum());
                last = now;
            }
            running.set(false);
            System.out.printf("average %,d trees/s over %d s%n", (last - start) / seconds, seconds);
            for (final Thread t : threads)
            {
                t.join(2000);
            }
        }
    }

    private static long dropped(final CheetahServer server)
    {
        long sum = 0;
        for (final AnalyzerSlot s : server.analyzers())
        {
            sum += s.counters().dropped.sum();
        }
        return sum;
    }
}
