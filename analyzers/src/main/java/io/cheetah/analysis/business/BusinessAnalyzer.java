package io.cheetah.analysis.business;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.DomainHoursAnalyzer;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.report.FoldedNames;
import io.cheetah.report.NameCleaner;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds the Business reports of one partition of domains (CAT's {@code business} analyzer): every metric message of
 * a tree, at any depth (Java 3.x {@code M} records, also inside {@code _CatMergeTree} and aggregator trees, and the
 * entries of 4.0 NM1/NB1 bags), counted per domain, metric key and minute of its own timestamp by
 * {@link MetricValue}'s rules. Like CAT it ignores metrics with a type in domain {@code cat} (the server's own
 * monitoring); unlike CAT a metric whose data does not parse is counted and skipped instead of aborting the rest of
 * its tree, and the tagged metrics of CAT's Java client ({@code TD}, {@code TC}, which CAT's server skips) count
 * under the key {@code key{tags}} ({@link #taggedKey}); other statuses are counted as skipped.
 * <p>
 * Caps: domains per hour ({@link ReportLimits#maxDomains()}, trees beyond dropped) and keys per domain
 * ({@link ReportLimits#maxNamesPerType()}, further keys fold into {@code OTHERS}); keys are cleaned as report names
 * are (control characters, {@link ReportLimits#maxNameLength()}). Every drop and fold is counted in
 * {@link BusinessLoss}. Allocation once warm: none per tree; a new key takes one item.
 * Single writer: every method runs on the partition's ring consumer thread.
 */
public final class BusinessAnalyzer extends DomainHoursAnalyzer<BusinessAnalyzer.Live, BusinessLoss>
{
    /**
     * Index 6, MID; takes trees holding at least one metric, as CAT's {@code isEligable} does. Listed in
     * {@link io.cheetah.analysis.AnalyzerCatalog}.
     */
    public static final AnalyzerSpec TYPE = new AnalyzerSpec(BusinessReport.NAME, 6, Level.MID,
        AnalyzerSpec.holding(MessageKind.METRIC), new BusinessReportFormat(), BusinessAnalyzer::new);

    /** The key that folded metrics count under. */
    public static final String OTHERS = FoldedNames.OTHERS;

    private static final int MINUTES = 60;

    private final NameCleaner cleaner;
    private final MetricValue metric = new MetricValue();

    /**
     * @param context partition and caps.
     */
    public BusinessAnalyzer(final AnalyzerContext context)
    {
        super(context, BusinessLoss.class, BusinessLoss.DOMAIN_DROPPED);
        this.cleaner = new NameCleaner(limits.maxNameLength());
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        final String domain = tree.domain();
        Live live = null;
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            if (tree.kind(i) != MessageKind.METRIC || ("cat".equals(domain) && !tree.type(i).isEmpty()))
            {
                continue;
            }
            if (live == null)
            {
                live = live(hourStart, tree.domainSymbol(), domain, tree.wideSource());
                if (live == null)
                {
                    return;
                }
            }
            final MetricValue.Outcome outcome = metric.read(tree, i);
            switch (outcome)
            {
                case COUNTED:
                case TAGGED:
                    final LiveItem item = outcome == MetricValue.Outcome.TAGGED ?
                        live.item(-1, taggedKey(tree.name(i), metric.tag(tree))) :
                        live.item(tree.nameSymbol(i), tree.name(i));
                    item.type = tree.status(i);
                    final int minute = (int)Math.floorMod(Math.floorDiv(tree.timestamp(i), 60_000L), (long)MINUTES);
                    item.mask |= 1L << minute;
                    item.counts[minute] += metric.count();
                    item.sums[minute] += metric.value();
                    break;
                case MALFORMED:
                    counters.increment(BusinessLoss.METRIC_MALFORMED);
                    break;
                default:
                    counters.increment(BusinessLoss.STATUS_SKIPPED);
                    break;
            }
        }
    }

    /**
     * @param key  a metric key.
     * @param tags the tags a client sent with it ({@code k=v&k2=v2}).
     * @return the key the tagged metric counts under: {@code key{tags}}, one item per key and tag combination.
     */
    public static String taggedKey(final String key, final String tags)
    {
        return key + '{' + tags + '}';
    }

    @Override
    public void restore(final Report report)
    {
        final BusinessReport saved = (BusinessReport)report;
        final Live live = live(saved.hourStart(), saved.domain(), false);
        if (live == null)
        {
            return;
        }
        for (final BusinessReport.Item i : saved.items())
        {
            final LiveItem item = live.item(-1, i.id());
            if (item.type == null)
            {
                item.type = i.type();
            }
            for (final BusinessReport.Segment s : i.segments())
            {
                item.mask |= 1L << s.minute();
                item.counts[s.minute()] += s.count();
                item.sums[s.minute()] += s.sum();
            }
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
        /** The metric keys, capped into {@code OTHERS}. */
        final FoldedNames<LiveItem> keys = new FoldedNames<>(cleaner, limits.maxNamesPerType(), LiveItem::new,
            () -> counters.increment(BusinessLoss.KEY_FOLDED));

        Live(final String domain, final long hourStart)
        {
            this.domain = domain;
            this.hourStart = hourStart;
        }

        LiveItem item(final int symbol, final String raw)
        {
            return keys.get(symbol, raw);
        }

        BusinessReport toReport()
        {
            final List<BusinessReport.Item> items = new ArrayList<>(keys.size());
            for (final LiveItem item : keys.entries())
            {
                final List<BusinessReport.Segment> segments = new ArrayList<>(Long.bitCount(item.mask));
                for (long m = item.mask; m != 0; m &= m - 1)
                {
                    final int minute = Long.numberOfTrailingZeros(m);
                    segments.add(new BusinessReport.Segment(minute, item.counts[minute], item.sums[minute]));
                }
                items.add(new BusinessReport.Item(item.id, item.type == null ? "" : item.type, segments));
            }
            items.sort(BusinessReport.ITEM_ORDER);
            return new BusinessReport(domain, hourStart, items);
        }
    }

    /** One key's live minutes. */
    private static final class LiveItem
    {
        final String id;
        String type;
        long mask;
        final long[] counts = new long[MINUTES];
        final double[] sums = new double[MINUTES];

        LiveItem(final String id)
        {
            this.id = id;
        }
    }
}
