package io.cheetah.catimport.mapping;

import io.cheetah.analysis.ReportLimits;
import io.cheetah.catimport.nativeformat.CatNode;
import io.cheetah.report.DomainReport;
import io.cheetah.report.FoldCounters;
import io.cheetah.report.MachineTally;
import io.cheetah.report.MinuteSeries;
import io.cheetah.report.NameCleaner;
import io.cheetah.report.Tally;
import io.cheetah.report.TypeTally;

/**
 * CAT's Transaction and Event reports as Cheetah's {@link DomainReport}: machine, type and name kept as CAT wrote
 * them (names cleaned and capped as the analyzers cap client text), each name's counts, sums, extremes, sample ids,
 * per-minute ranges and status codes taken over, and a type's figures made from its names as every report copy
 * makes them. Called by {@link ReportMapping}.
 * <p>
 * What cannot be carried: CAT keeps a name's durations as coarse buckets for the whole hour ({@code duration}), not
 * per minute, so they go into the sketch under the name's busiest minute: the hour's percentiles come from CAT's
 * buckets, a minute's are only clamped to that minute's min and max. Cheetah keeps min and max as whole ms: CAT's
 * fractional ones are widened to the enclosing whole ms.
 */
final class TallyMapping
{
    /** CAT's rendering of a min that saw no duration. */
    private static final double CAT_EMPTY_MIN = Tally.CAT_EMPTY_MIN;

    private TallyMapping()
    {
    }

    /**
     * @param tree      a decoded {@code transaction-report}.
     * @param domain    the domain of CAT's row.
     * @param hourStart epoch ms of the hour.
     * @return the report, types holding their names' figures.
     */
    static DomainReport transaction(final CatNode tree, final String domain, final long hourStart)
    {
        return map("transaction", tree, domain, hourStart, true);
    }

    /**
     * @param tree      a decoded {@code event-report}.
     * @param domain    the domain of CAT's row.
     * @param hourStart epoch ms of the hour.
     * @return the report, types holding their names' figures.
     */
    static DomainReport event(final CatNode tree, final String domain, final long hourStart)
    {
        return map("event", tree, domain, hourStart, false);
    }

    private static DomainReport map(final String analyzer, final CatNode tree, final String domain,
        final long hourStart, final boolean durations)
    {
        final ReportLimits limits = ReportLimits.DEFAULT;
        final FoldCounters folds = new FoldCounters();
        final DomainReport report = new DomainReport(analyzer, domain, hourStart,
            new NameCleaner(limits.maxNameLength()), folds);
        for (final CatNode machine : tree.children("machine"))
        {
            final MachineTally m = report.machine(ReportMapping.nonNull(machine.string("ip")),
                limits.maxMachinesPerDomain(), 0, folds);
            for (final CatNode type : machine.children("type"))
            {
                final TypeTally t = m.type(report, ReportMapping.nonNull(type.string("id")),
                    limits.maxTypesPerMachine(), 0, folds);
                samples(t, type);
                for (final CatNode name : type.children("name"))
                {
                    final Tally n = t.name(report, ReportMapping.nonNull(name.string("id")),
                        limits.maxNamesPerType(), 0, folds);
                    name(report, n, name, durations, limits, folds);
                }
            }
        }
        // a copy holds every type's figures made from its names (what storage and readers expect)
        return report.copy();
    }

    private static void name(final DomainReport report, final Tally n, final CatNode name, final boolean durations,
        final ReportLimits limits, final FoldCounters folds)
    {
        final long count = Math.max(0, name.longValue("totalCount", 0));
        final long fails = Math.max(0, Math.min(count, name.longValue("failCount", 0)));
        if (durations)
        {
            final double min = name.doubleValue("min", CAT_EMPTY_MIN);
            final double max = name.doubleValue("max", -1);
            n.addStored(count, fails, finite(name.doubleValue("sum", 0)), finite(name.doubleValue("sum2", 0)),
                count == 0 || !(min < CAT_EMPTY_MIN) ? Tally.NO_MIN : (long)Math.floor(Math.max(0, min)),
                count == 0 || !(max >= 0) ? -1 : (long)Math.ceil(Math.min(max, Integer.MAX_VALUE - 1)));
        }
        else
        {
            n.addStored(count, fails, 0, 0, Tally.NO_MIN, -1);
        }
        samples(n, name);
        int busiest = -1;
        long busiestCount = -1;
        for (final CatNode range : name.children("range"))
        {
            final long minute = range.longValue("value", -1);
            final long rangeCount = Math.max(0, range.longValue("count", 0));
            if (minute < 0 || minute >= MinuteSeries.MINUTES)
            {
                continue;
            }
            final long rangeFails = Math.max(0, Math.min(rangeCount, range.longValue("fails", 0)));
            if (durations)
            {
                final double min = range.doubleValue("min", -1);
                final double max = range.doubleValue("max", -1);
                n.minutes().add((int)minute, rangeCount, rangeFails, finite(range.doubleValue("sum", 0)),
                    min < 0 || rangeCount == 0 ? MinuteSeries.NO_MIN : (long)Math.floor(min),
                    max < 0 || rangeCount == 0 ? -1 : (long)Math.ceil(Math.min(max, Integer.MAX_VALUE - 1)));
            }
            else
            {
                n.minutes().add((int)minute, rangeCount, rangeFails, 0, MinuteSeries.NO_MIN, -1);
            }
            if (rangeCount > busiestCount)
            {
                busiestCount = rangeCount;
                busiest = (int)minute;
            }
        }
        if (durations)
        {
            for (final CatNode duration : name.children("duration"))
            {
                n.addStoredDurations(Math.max(0, busiest), duration.longValue("value", 0),
                    duration.longValue("count", 0));
            }
        }
        for (final CatNode code : name.children("statusCode"))
        {
            final String id = code.string("id");
            final long codeCount = code.longValue("count", 0);
            if (id != null && codeCount > 0)
            {
                n.recordStatus(report, id, codeCount, limits.maxStatusCodes(), folds);
            }
        }
    }

    private static void samples(final Tally t, final CatNode node)
    {
        final String success = ReportMapping.sample(node.text("successMessageUrl"));
        final String fail = ReportMapping.sample(node.text("failMessageUrl"));
        final String longest = ReportMapping.sample(node.text("longestMessageUrl"));
        if (success != null)
        {
            t.sampleSuccess(success);
        }
        if (fail != null)
        {
            t.sampleFail(fail);
        }
        if (longest != null)
        {
            t.sampleLongest(longest);
        }
    }

    private static double finite(final double v)
    {
        return Double.isFinite(v) ? v : 0;
    }
}
