package io.cheetah.analysis.matrix;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.DomainHoursAnalyzer;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.report.FoldedNames;
import io.cheetah.report.NameCleaner;
import io.cheetah.report.SymbolClasses;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds the Matrix reports of one partition of domains with CAT 3.1.0's {@code MatrixAnalyzer} rules: a tree whose
 * root is a {@code URL}, {@code Service} or {@code PigeonService} transaction counts one request of the entry point
 * named by the root (its count, its duration added to the total, the first request's id kept), and every transaction
 * under the root, at any depth, of type {@code SQL}, {@code Call} or {@code PigeonCall} (CAT's RPC clients), or
 * {@code Cache.*} counts as one call of that kind with its duration. Per request and kind the number of calls then
 * updates the kind's total, its max (with the id of the request that first reached it) and its min, by CAT's rule: a
 * min of 0 is replaced by the next request's count, whatever it is.
 * <p>
 * Caps: domains per hour ({@link ReportLimits#maxDomains()}, requests beyond dropped) and names per domain
 * ({@link ReportLimits#maxNamesPerType()}, further names fold into {@code OTHERS}); names are cleaned as report names
 * are. Every drop and fold is counted in {@link MatrixLoss}. Allocation once warm: none per tree (a request that sets
 * a new max takes its message id as text). Single writer: every method runs on the partition's ring consumer thread.
 */
public final class MatrixAnalyzer extends DomainHoursAnalyzer<MatrixAnalyzer.Live, MatrixLoss>
{
    /**
     * Index 10, LOW; takes trees rooted at an entry point, as CAT's analyzer only looks at those. Listed in
     * {@link io.cheetah.analysis.AnalyzerCatalog}.
     */
    public static final AnalyzerSpec TYPE = new AnalyzerSpec(MatrixReport.NAME, 10, Level.LOW,
        MatrixAnalyzer::isRequest, new MatrixReportFormat(), MatrixAnalyzer::new);

    /** The name that folded requests count under. */
    public static final String OTHERS = FoldedNames.OTHERS;

    private static final int SQL = 0;
    private static final int CALL = 1;
    private static final int CACHE = 2;
    private static final int KINDS = 3;

    /** {@link SymbolClasses} flag of a request's root type; the call kind + 1 is kept in the low two bits. */
    private static final int REQUEST = 1 << 2;
    private static final int KIND_MASK = 3;

    private final NameCleaner cleaner;
    /** Message types by symbol, so a message costs one byte read, not a run of string comparisons. */
    private final SymbolClasses types = new SymbolClasses(MatrixAnalyzer::classify);
    /** This request's calls and their time per kind (reused). */
    private final long[] calls = new long[KINDS];
    private final long[] micros = new long[KINDS];

    /**
     * @param context partition and caps.
     */
    public MatrixAnalyzer(final AnalyzerContext context)
    {
        super(context, MatrixLoss.class, MatrixLoss.DOMAIN_DROPPED);
        this.cleaner = new NameCleaner(limits.maxNameLength());
    }

    /**
     * The prefilter (ingest thread): CAT's entry points.
     *
     * @param tree a decoded tree.
     * @return true when its root is a {@code URL}, {@code Service} or {@code PigeonService} transaction.
     */
    public static boolean isRequest(final FlatTree tree)
    {
        if (tree.size() == 0 || !tree.isTransaction(0))
        {
            return false;
        }
        return isRequestType(tree.type(0));
    }

    private static boolean isRequestType(final String type)
    {
        return "URL".equals(type) || "Service".equals(type) || "PigeonService".equals(type);
    }

    private static int classify(final String type)
    {
        return (kind(type) + 1) | (isRequestType(type) ? REQUEST : 0);
    }

    /**
     * @param type a transaction type.
     * @return the call kind it counts as ({@link #SQL}, {@link #CALL}, {@link #CACHE}), or -1.
     */
    private static int kind(final String type)
    {
        if ("SQL".equals(type))
        {
            return SQL;
        }
        if ("Call".equals(type) || "PigeonCall".equals(type))
        {
            return CALL;
        }
        return type.startsWith("Cache.") ? CACHE : -1;
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        if (tree.size() == 0 || !tree.isTransaction(0) || (types.of(tree.typeSymbol(0), tree.type(0)) & REQUEST) == 0)
        {
            return;
        }
        final Live live = live(hourStart, tree.domainSymbol(), tree.domain(), tree.wideSource());
        if (live == null)
        {
            return;
        }
        final LiveMatrix m = live.matrix(tree.nameSymbol(0), tree.name(0));
        m.type = tree.type(0);
        m.count++;
        m.totalMicros += tree.durationMicros(0);
        if (m.url == null)
        {
            m.url = tree.messageId();
        }
        calls[SQL] = 0;
        calls[CALL] = 0;
        calls[CACHE] = 0;
        micros[SQL] = 0;
        micros[CALL] = 0;
        micros[CACHE] = 0;
        for (int i = 1, n = tree.size(); i < n; i++)
        {
            if (tree.isTransaction(i))
            {
                final int k = (types.of(tree.typeSymbol(i), tree.type(i)) & KIND_MASK) - 1;
                if (k >= 0)
                {
                    calls[k]++;
                    micros[k] += tree.durationMicros(i);
                }
            }
        }
        for (int k = 0; k < KINDS; k++)
        {
            final long count = calls[k];
            if (m.min[k] > count || m.min[k] == 0)
            {
                m.min[k] = count;
            }
            if (m.max[k] < count)
            {
                m.max[k] = count;
                m.maxUrl[k] = tree.messageId();
            }
            m.ratioCount[k] += count;
            m.ratioMicros[k] += micros[k];
        }
    }

    @Override
    public void restore(final Report report)
    {
        final MatrixReport saved = (MatrixReport)report;
        final Live live = live(saved.hourStart(), saved.domain(), false);
        if (live == null)
        {
            return;
        }
        for (final MatrixReport.Matrix s : saved.matrices())
        {
            live.add(s);
        }
    }

    @Override
    protected Live newLive(final String domain, final long hourStart)
    {
        return new Live(domain, hourStart);
    }

    @Override
    protected Report report(final Live live)
    {
        return live.toReport();
    }

    /** One domain's hour being built. */
    final class Live
    {
        final String domain;
        final long hourStart;
        /** The entry points, capped into {@code OTHERS}. */
        final FoldedNames<LiveMatrix> entryPoints = new FoldedNames<>(cleaner, limits.maxNamesPerType(),
            LiveMatrix::new, () -> counters.increment(MatrixLoss.NAME_FOLDED));

        Live(final String domain, final long hourStart)
        {
            this.domain = domain;
            this.hourStart = hourStart;
        }

        LiveMatrix matrix(final int symbol, final String raw)
        {
            return entryPoints.get(symbol, raw);
        }

        /** Adds a saved matrix (a restart's checkpoint) with the report's merge rules. */
        void add(final MatrixReport.Matrix saved)
        {
            final LiveMatrix m = matrix(-1, saved.name());
            final MatrixReport.Matrix merged = m.count == 0 ? saved :
                MatrixReportFormat.merge(m.toMatrix(), saved);
            m.set(merged);
        }

        MatrixReport toReport()
        {
            final List<MatrixReport.Matrix> matrices = new ArrayList<>(entryPoints.size());
            for (final LiveMatrix m : entryPoints.entries())
            {
                matrices.add(m.toMatrix());
            }
            matrices.sort(MatrixReport.ORDER);
            return new MatrixReport(domain, hourStart, matrices);
        }
    }

    /** One entry point's live figures. */
    private static final class LiveMatrix
    {
        final String name;
        String type;
        long count;
        long totalMicros;
        String url;
        final long[] min = new long[KINDS];
        final long[] max = new long[KINDS];
        final String[] maxUrl = new String[KINDS];
        final long[] ratioCount = new long[KINDS];
        final long[] ratioMicros = new long[KINDS];

        LiveMatrix(final String name)
        {
            this.name = name;
        }

        MatrixReport.Matrix toMatrix()
        {
            final List<MatrixReport.Ratio> ratios = new ArrayList<>(KINDS);
            for (int k = 0; k < KINDS; k++)
            {
                ratios.add(new MatrixReport.Ratio(MatrixReport.RATIO_TYPES.get(k), min[k], max[k], maxUrl[k],
                    ratioCount[k], ratioMicros[k]));
            }
            return new MatrixReport.Matrix(name, type == null ? "" : type, count, totalMicros, url, ratios);
        }

        void set(final MatrixReport.Matrix m)
        {
            type = m.type();
            count = m.count();
            totalMicros = m.totalMicros();
            url = m.url();
            for (int k = 0; k < KINDS; k++)
            {
                final MatrixReport.Ratio r = m.ratio(MatrixReport.RATIO_TYPES.get(k));
                if (r != null)
                {
                    min[k] = r.min();
                    max[k] = r.max();
                    maxUrl[k] = r.url();
                    ratioCount[k] = r.totalCount();
                    ratioMicros[k] = r.totalMicros();
                }
            }
        }
    }
}
