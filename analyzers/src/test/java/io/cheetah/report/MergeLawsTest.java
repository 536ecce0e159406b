package io.cheetah.report;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.TreeBuilder;
import io.cheetah.analysis.event.EventAnalyzer;
import io.cheetah.analysis.transaction.TransactionAnalyzer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The merge laws the storage roll-ups and the All/multi-server views rely on: associative, commutative, and equal
 * to counting all the traffic in one analyzer (so the sketch merge is exact), for both report formats.
 */
class MergeLawsTest
{
    private static final String[] TYPES = {"URL", "SQL", "Cache.redis", "Call"};
    private static final String[] STATUS = {"0", "0", "0", "Timeout", "E"};

    /** Feeds {@code trees} random trees to every analyzer in {@code into} (round robin) and to {@code all}. */
    static void feed(final long seed, final int trees, final Object[] into, final Object all)
    {
        final Random random = new Random(seed);
        for (int k = 0; k < trees; k++)
        {
            final String ip = "10.0.0." + random.nextInt(3);
            final TreeBuilder b = new TreeBuilder("d", ip, "d-0a000000-498699-" + random.nextInt(1000));
            final long ts = TreeBuilder.HOUR + random.nextInt(3_600_000);
            final int root = b.tx(-1, "URL", "/api/" + random.nextInt(5), STATUS[random.nextInt(STATUS.length)],
                ts, (long)(Math.exp(Math.log(40_000) + random.nextGaussian()) ), "");
            for (int c = random.nextInt(6); c > 0; c--)
            {
                final String type = TYPES[random.nextInt(TYPES.length)];
                if (random.nextInt(5) == 0)
                {
                    b.tx(root, type, "n" + random.nextInt(4), "0", ts, 0,
                        "@" + (1 + random.nextInt(9)) + ";" + random.nextInt(2) + ";" + random.nextInt(90) + ";" +
                            random.nextInt(30) + ",1|" + random.nextInt(300) + ",2;");
                }
                else
                {
                    b.tx(root, type, "n" + random.nextInt(4), STATUS[random.nextInt(STATUS.length)],
                        ts + random.nextInt(60_000), random.nextInt(2_000_000), "");
                }
                b.event(root, type + ".e", "v" + random.nextInt(3), STATUS[random.nextInt(STATUS.length)], ts,
                    random.nextInt(4) == 0 ? "@3;1" : "");
            }
            final long hour = TreeBuilder.HOUR;
            process(into[k % into.length], b, hour);
            process(all, b, hour);
        }
    }

    private static void process(final Object analyzer, final TreeBuilder b, final long hour)
    {
        if (analyzer instanceof TransactionAnalyzer t)
        {
            t.process(b.tree(), hour);
        }
        else
        {
            ((EventAnalyzer)analyzer).process(b.tree(), hour);
        }
    }

    static Report snapshot(final Object analyzer)
    {
        return analyzer instanceof TransactionAnalyzer t ? t.snapshot(TreeBuilder.HOUR, "d") :
            ((EventAnalyzer)analyzer).snapshot(TreeBuilder.HOUR, "d");
    }

    private static void check(final long seed, final boolean transactions)
    {
        final AnalyzerContext ctx = AnalyzerContext.single();
        final Object[] parts = new Object[3];
        for (int i = 0; i < parts.length; i++)
        {
            parts[i] = transactions ? new TransactionAnalyzer(ctx) : new EventAnalyzer(ctx);
        }
        final Object all = transactions ? new TransactionAnalyzer(ctx) : new EventAnalyzer(ctx);
        feed(seed, 60, parts, all);
        final ReportFormat f = transactions ? TransactionAnalyzer.FORMAT : EventAnalyzer.FORMAT;
        final Report a = snapshot(parts[0]);
        final Report b = snapshot(parts[1]);
        final Report c = snapshot(parts[2]);
        final String left = ReportDump.dump((DomainReport)f.merge(f.merge(a, b), c));
        final String right = ReportDump.dump((DomainReport)f.merge(a, f.merge(b, c)));
        final String swapped = ReportDump.dump((DomainReport)f.merge(c, f.merge(b, a)));
        assertThat(left).isEqualTo(right).isEqualTo(swapped);
        // Sample ids depend on arrival order inside one analyzer; every figure must equal counting it all at once.
        assertThat(ReportDump.dump((DomainReport)f.merge(f.merge(a, b), c), false))
            .isEqualTo(ReportDump.dump((DomainReport)snapshot(all), false));
    }

    @Property(tries = 30)
    void transactionMergeIsAssociativeCommutativeAndExact(@ForAll final long seed)
    {
        check(seed, true);
    }

    @Property(tries = 30)
    void eventMergeIsAssociativeCommutativeAndExact(@ForAll final long seed)
    {
        check(seed, false);
    }
}
