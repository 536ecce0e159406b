package io.cheetah.bench.analysis;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.EncodedReport;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.transaction.TransactionAnalyzer;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.report.DomainReport;
import io.cheetah.report.Tally;

import java.util.ArrayList;
import java.util.List;

/**
 * How the Transaction analyzer's live reports grow through one hour at a steady rate of std-mix trees, and what a
 * checkpoint's copy of them costs as they grow: the figures a four-minute capacity ramp never sees. Feeds
 * {@code perMinute} std trees (seed 7, decoded from NT1) into each minute of one hour on one thread, and every
 * {@code every} minutes prints the heap in use after a full collection, the time to snapshot every domain (what a
 * query of the live hour costs the ring thread), the time and bytes of a checkpoint of every domain (what
 * {@code RingConsumer.checkpoint} does on a ring thread: the live reports encoded, here on an otherwise idle core)
 * and the entries behind them: name tallies, minute cells (32 bytes each) and duration-sketch cells (8 bytes each);
 * at the end, the time the hour's close takes to hand its reports over. Runnable:
 * {@code java -Xmx4g -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar
 * io.cheetah.bench.analysis.ReportGrowth [perMinute] [minutes] [every]} (defaults 250,000, 60, 10).
 */
public final class ReportGrowth
{
    private static final long HOUR = 1_795_316_400_000L;

    private ReportGrowth()
    {
    }

    /**
     * @param args optional trees per minute, minutes to feed, and how often to print.
     * @throws MalformedFrameException never (the generator's frames are well formed).
     */
    public static void main(final String[] args) throws MalformedFrameException
    {
        final long perMinute = args.length > 0 ? Long.parseLong(args[0]) : 250_000;
        final int minutes = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        final int every = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        final ClockedStdTrees source = new ClockedStdTrees();
        final TransactionAnalyzer analyzer = new TransactionAnalyzer(AnalyzerContext.single());
        final Runtime runtime = Runtime.getRuntime();
        System.out.printf("std-mix, %,d trees per minute (%,.0f trees/s) into the Transaction analyzer%n",
            perMinute, perMinute / 60.0);
        for (int m = 0; m < minutes; m++)
        {
            for (long i = 0; i < perMinute; i++)
            {
                analyzer.process(source.next(HOUR + m * 60_000L + i * 60_000L / perMinute), HOUR);
            }
            if ((m + 1) % every == 0 || m == minutes - 1)
            {
                System.gc();
                final long heap = runtime.totalMemory() - runtime.freeMemory();
                final List<Report> copies = new ArrayList<>();
                final long start = System.nanoTime();
                for (final String domain : analyzer.domains(HOUR))
                {
                    copies.add(analyzer.snapshot(HOUR, domain));
                }
                final long copyNanos = System.nanoTime() - start;
                final long[] entries = new long[3];
                copies.forEach(copy -> count(copy, entries));
                copies.clear();
                System.gc();
                long encoded = 0;
                final long encodeStart = System.nanoTime();
                for (final String domain : analyzer.domains(HOUR))
                {
                    encoded += ((EncodedReport)analyzer.checkpoint(HOUR, domain)).bytes().length;
                }
                final long encodeNanos = System.nanoTime() - encodeStart;
                System.out.printf("after minute %2d: heap %,5d MB; snapshot of every domain %,6d ms; " +
                    "checkpoint (encoded) %,6d ms, %,d MB; %,d names, %,d minute cells (%,d MB), " +
                    "%,d sketch cells (%,d MB)%n", m + 1, heap >> 20, copyNanos / 1_000_000,
                    encodeNanos / 1_000_000, encoded >> 20, entries[0], entries[1], entries[1] * 32 >> 20,
                    entries[2], entries[2] * 8 >> 20);
            }
        }
        final long closeStart = System.nanoTime();
        final int closed = analyzer.closeHour(HOUR).size();
        System.out.printf("hour closed: %,d reports handed over in %,d ms%n", closed,
            (System.nanoTime() - closeStart) / 1_000_000);
    }

    private static void count(final Report report, final long[] entries)
    {
        ((DomainReport)report).machines().values().forEach(machine -> machine.types().values()
            .forEach(type -> type.names().values().forEach(name -> add(name, entries))));
    }

    private static void add(final Tally name, final long[] entries)
    {
        entries[0]++;
        entries[1] += Long.bitCount(name.minutes().mask());
        entries[2] += name.sketch() == null ? 0 : name.sketch().cells();
    }
}
