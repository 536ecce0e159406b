package io.cheetah.bench.logview;

import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.SharedSymbols;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.logview.LogviewSearch;
import io.cheetah.logview.LogviewSettings;
import io.cheetah.logview.LogviewStore;
import io.cheetah.logview.LogviewWriter;
import io.cheetah.logview.search.SearchPage;
import io.cheetah.logview.search.SearchQuery;
import io.cheetah.message.Event;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import io.cheetah.workload.StdMix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The logview search over one whole hour of std-mix at a given rate (default 25,000 trees/s: 90 M trees), built
 * offline: two threads generate, encode and decode trees (with the ingest's shared symbols) and store them through
 * two partition writers, as the dump analyzers would; one tree in 100,000 of the busiest domain gets a {@code Rare}
 * event. Then prints the index's size against the compressed logview bytes, and the latency of the first and last
 * page of a query matching 1 in 100,000 of the domain's trees ({@code type=Rare}) and of the first page of one
 * matching about half ({@code type=URL&minMs=40}), each the median of five runs with a warm page cache.
 * <p>
 * {@code java -cp benchmarks/target/benchmarks.jar io.cheetah.bench.logview.SearchHour [trees/s] [seconds] [dir]}
 * (without dir, a temporary one deleted afterwards; about 270 bytes of disk per tree; with a dir already holding
 * an hour, that hour is searched again without writing).
 */
public final class SearchHour
{
    private static final long HOUR = 498_699;
    private static final long HOUR_START = HOUR * 3_600_000L;
    private static final String DOMAIN = "app-000";
    private static final int RARE_EVERY = 100_000;

    private SearchHour()
    {
    }

    /**
     * @param args trees per second, seconds of the hour to build (default 3,600), directory.
     * @throws Exception on a failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final int rate = args.length > 0 ? Integer.parseInt(args[0]) : 25_000;
        final int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 3_600;
        final Path dir = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("search-hour");
        final long trees = (long)rate * seconds;
        final LogviewStore store = new LogviewStore(LogviewSettings.defaults(dir));
        final SharedSymbols symbols = new SharedSymbols();
        final AtomicLong domainTrees = new AtomicLong();
        final AtomicLong rare = new AtomicLong();
        final long start = System.nanoTime();
        // an hour built by an earlier run in the same directory is searched again (query figures alone on the machine)
        final Thread[] workers = new Thread[Files.exists(dir.resolve("logview")) ? 0 : 2];
        for (int w = 0; w < workers.length; w++)
        {
            final int partition = w;
            final LogviewWriter writer = store.writer(partition);
            workers[w] = new Thread(() -> generate(writer, partition, 2, trees, rate, symbols,
                domainTrees, rare), "writer-" + w);
            workers[w].start();
        }
        for (final Thread t : workers)
        {
            t.join();
        }
        final double writeSeconds = (System.nanoTime() - start) / 1e9;
        final long dat = bytes(dir, ".dat");
        final long six = bytes(dir, ".six");
        final long idx = bytes(dir, ".idx");
        System.out.printf("stored %,d trees (%s: %,d, %,d with Rare) in %.0f s; .dat %,d B (%.0f B/tree), " +
            ".idx %,d B, .six %,d B (%.1f B/tree) = %.1f %% of the compressed trees%n",
            store.counters().treesStored(), DOMAIN,
            domainTrees.get(), rare.get(), writeSeconds, dat, dat / (double)trees, idx, six, six / (double)trees,
            100.0 * six / dat);

        final LogviewSearch search = LogviewSearch.of(store);
        final long from = HOUR_START;
        final long to = HOUR_START + 3_600_000L;
        final SearchQuery rareQuery = new SearchQuery(DOMAIN, from, to, "Rare", null, null, null, null, null, null,
            50, null);
        final SearchQuery half = new SearchQuery(DOMAIN, from, to, "URL", null, null, 40L, null, null, null, 50,
            null);
        for (int round = 0; round < 2; round++)
        {
            final double[] rareFirst = new double[5];
            final double[] rareLast = new double[5];
            final double[] halfFirst = new double[5];
            long pages = 0;
            long matches = 0;
            for (int r = 0; r < 5; r++)
            {
                long t0 = System.nanoTime();
                SearchPage page = search.search(rareQuery);
                rareFirst[r] = (System.nanoTime() - t0) / 1e6;
                pages = 1;
                matches = page.hits().size();
                double last = rareFirst[r];
                while (page.next() != null)
                {
                    t0 = System.nanoTime();
                    page = search.search(rareQuery.after(page.next()));
                    last = (System.nanoTime() - t0) / 1e6;
                    pages++;
                    matches += page.hits().size();
                }
                rareLast[r] = last;
                t0 = System.nanoTime();
                final SearchPage h = search.search(half);
                halfFirst[r] = (System.nanoTime() - t0) / 1e6;
            }
            System.out.printf("%s: type=Rare (%,d matches, %d pages) first page %.0f ms, last page %.0f ms; " +
                "type=URL&minMs=40 first page %.0f ms (medians of 5)%n", round == 0 ? "first round" : "second round",
                matches, pages, median(rareFirst), median(rareLast), median(halfFirst));
        }
        store.close();
        if (args.length <= 2)
        {
            try (Stream<Path> files = Files.walk(dir))
            {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void generate(final LogviewWriter writer, final int partition, final int writers,
        final long trees, final int rate, final SharedSymbols symbols, final AtomicLong domainTrees,
        final AtomicLong rare)
    {
        final long[] clock = {HOUR_START};
        final StdMix mix = StdMix.builder().seed(51 + partition).clock(() -> clock[0]).heartbeats(false).build();
        final TreeDecoder decoder = new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(1 << 16, symbols));
        final FlatTree tree = new FlatTree();
        final long step = 1_000_000_000L / rate; // ns of the hour per tree
        long domainCount = 0;
        for (long i = partition; i < trees; i += writers)
        {
            clock[0] = HOUR_START + i * step / 1_000_000L;
            final MessageTree mt = mix.nextTree();
            if (DOMAIN.equals(mt.domain()) && ++domainCount % RARE_EVERY == 0)
            {
                ((TransactionMessage)mt.root()).addChild(new Event("Rare", "marker", "0", "", clock[0]));
                rare.incrementAndGet();
            }
            final byte[] frame = Nt1Encoder.encode(mt);
            try
            {
                decoder.decodeFrame(frame, 0, frame.length, tree);
            }
            catch (final Exception e)
            {
                throw new IllegalStateException(e);
            }
            writer.append(tree, HOUR_START);
        }
        domainTrees.addAndGet(domainCount);
        writer.closeHour(HOUR_START);
    }

    private static long bytes(final Path dir, final String extension) throws IOException
    {
        try (Stream<Path> files = Files.walk(dir))
        {
            return files.filter(p -> p.toString().endsWith(extension)).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static double median(final double[] values)
    {
        final double[] v = values.clone();
        Arrays.sort(v);
        return v[v.length / 2];
    }
}
