package io.cheetah.bench.analysis;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.DoubleSupplier;

/**
 * Compares one analyzer as two builds implement it, in one JVM: each benchmark jar is loaded by class loaders of
 * its own, and their {@link AnalyzerPass}es run in turn, so that the drift of a shared VM, which moves separate JMH
 * runs minutes apart by 30 % here, falls on both alike. Each build is loaded twice, in the order A B B A, and a
 * round times all four in that order or its reverse. Where a copy's trees and reports sit in the heap still moves
 * its time: the same jar as A and B gave B/A of 0.93 and 1.13 in two JVMs (1.12 with one copy each). So run it
 * again with the jars swapped and count only an effect that holds in both orders, taking
 * {@code sqrt(ratio(A, B) / ratio(B, A))} as B's cost relative to A's. Prints each build's median nanoseconds per
 * tree, the median of the per-round ratios B / A and in how many rounds B was faster.
 * <pre>
 *   java -Xmx12g -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar \
 *       io.cheetah.bench.analysis.AlternatingBuilds A.jar B.jar transaction 65536 15
 * </pre>
 * Both jars must contain {@link AnalyzerPass} and {@link StdTreePopulation} (benchmark jars of this module from
 * round-two session 23 on; for an older build, copy the two into its sources). The name {@code decode} compares the
 * ingest's decoding instead ({@code io.cheetah.bench.codec.DecodePass}, from session 24 on).
 */
public final class AlternatingBuilds
{
    private static final String PASS = "io.cheetah.bench.analysis.AnalyzerPass";
    /** The pass for the name {@code decode}: the ingest's decoding instead of an analyzer. */
    private static final String DECODE = "io.cheetah.bench.codec.DecodePass";

    private AlternatingBuilds()
    {
    }

    /**
     * @param args jar A, jar B, analyzer name, trees, rounds.
     * @throws Exception when a jar cannot be loaded.
     */
    public static void main(final String[] args) throws Exception
    {
        if (args.length != 5)
        {
            System.err.println("usage: AlternatingBuilds A.jar B.jar ANALYZER TREES ROUNDS");
            System.exit(2);
        }
        final int trees = Integer.parseInt(args[3]);
        final int rounds = Integer.parseInt(args[4]);
        final DoubleSupplier a1 = load(args[0], args[2], trees);
        final DoubleSupplier b1 = load(args[1], args[2], trees);
        final DoubleSupplier b2 = load(args[1], args[2], trees);
        final DoubleSupplier a2 = load(args[0], args[2], trees);
        final DoubleSupplier[] order = {a1, b1, b2, a2};
        for (int w = 0; w < 3; w++)
        {
            for (final DoubleSupplier p : order)
            {
                p.getAsDouble();
            }
        }
        final double[] ta = new double[rounds];
        final double[] tb = new double[rounds];
        final double[] t = new double[order.length];
        int faster = 0;
        for (int r = 0; r < rounds; r++)
        {
            for (int k = 0; k < order.length; k++)
            {
                final int at = (r & 1) == 0 ? k : order.length - 1 - k;
                t[at] = order[at].getAsDouble();
            }
            ta[r] = (t[0] + t[3]) / 2;
            tb[r] = (t[1] + t[2]) / 2;
            faster += tb[r] < ta[r] ? 1 : 0;
        }
        final double[] ratio = new double[rounds];
        Arrays.setAll(ratio, r -> tb[r] / ta[r]);
        System.out.printf(Locale.ROOT, "%s, %d trees, %d rounds: A %.1f ns/tree, B %.1f ns/tree (medians); "
            + "B/A %.3f (median of rounds); B faster in %d of %d%n", args[2], trees, rounds, median(ta),
            median(tb), median(ratio), faster, rounds);
    }

    private static DoubleSupplier load(final String jar, final String analyzer, final int trees) throws Exception
    {
        final URLClassLoader loader = new URLClassLoader(new URL[] {Path.of(jar).toUri().toURL()},
            ClassLoader.getPlatformClassLoader());
        final String pass = "decode".equals(analyzer) ? DECODE : PASS;
        return (DoubleSupplier)loader.loadClass(pass).getConstructor(String.class, int.class)
            .newInstance(analyzer, trees);
    }

    private static double median(final double[] v)
    {
        final double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
