package io.cheetah.bench.analysis;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.transaction.TransactionAnalyzer;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.message.FlatTree;
import org.openjdk.jol.info.GraphLayout;

import java.util.HashMap;
import java.util.Map;

/**
 * Retained heap of one hour of std-mix traffic in the Transaction analyzer's reports versus the same figures in
 * a plain LinkedHashMap-of-objects model ({@link ObjectModelReport}), measured with JOL
 * ({@code GraphLayout.totalSize}, per domain, summed; strings shared between domains are counted in each, for
 * both models alike). Runnable:
 * {@code java -cp benchmarks/target/benchmarks.jar io.cheetah.bench.analysis.ReportMemory [trees]}
 * (default 1,000,000 std trees of {@code io.cheetah.workload.StdMix}, decoded from NT1, spread over the hour).
 * Prints both totals and the ratio.
 */
public final class ReportMemory
{
    private static final long HOUR = 1_795_316_400_000L;

    private ReportMemory()
    {
    }

    /**
     * @param args optional tree count.
     */
    public static void main(final String[] args) throws MalformedFrameException
    {
        final int trees = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        final ClockedStdTrees source = new ClockedStdTrees();
        final TransactionAnalyzer analyzer = new TransactionAnalyzer(AnalyzerContext.single());
        final Map<String, ObjectModelReport> baseline = new HashMap<>();
        for (int i = 0; i < trees; i++)
        {
            final FlatTree tree = source.next(HOUR + (long)i * 3_600_000L / trees);
            analyzer.process(tree, HOUR);
            baseline.computeIfAbsent(tree.domain(), k -> new ObjectModelReport()).process(tree);
        }
        long ours = 0;
        long theirs = 0;
        long names = 0;
        for (final Report r : analyzer.closeHour(HOUR))
        {
            ours += GraphLayout.parseInstance(r).totalSize();
            final ObjectModelReport b = baseline.get(r.domain());
            theirs += GraphLayout.parseInstance(b).totalSize();
            for (final Map<String, ObjectModelReport.Entry> types : b.machines.values())
            {
                for (final ObjectModelReport.Entry t : types.values())
                {
                    names += t.names.size();
                }
            }
        }
        System.out.printf("trees=%d domains=%d name entries=%d%n", trees, baseline.size(), names);
        System.out.printf("cheetah reports: %,d bytes (%.0f bytes per name)%n", ours, (double)ours / names);
        System.out.printf("object model   : %,d bytes (%.0f bytes per name)%n", theirs, (double)theirs / names);
        System.out.printf("ratio          : %.1f%%%n", 100.0 * ours / theirs);
    }
}
