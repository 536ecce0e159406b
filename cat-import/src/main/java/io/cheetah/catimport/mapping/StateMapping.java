package io.cheetah.catimport.mapping;

import io.cheetah.catimport.nativeformat.CatNode;
import io.cheetah.server.state.StateReport;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * CAT's State report (its servers' own figures, domain {@code cat}) as Cheetah's {@link StateReport}: per server its
 * per-minute messages (trees, bytes, loss) and per client domain its per-minute details and client IPs. The minute is
 * read off each entry's id, the minute's start in epoch ms, as CAT writes it; entries outside the hour are dropped.
 * CAT's block, dump, delay and pigeon figures have no place in Cheetah's model (it answers them as zeros). Called by
 * {@link ReportMapping}.
 */
final class StateMapping
{
    private StateMapping()
    {
    }

    /**
     * @param tree      a decoded {@code state-report}.
     * @param hourStart epoch ms of the hour.
     * @return the report.
     */
    static StateReport map(final CatNode tree, final long hourStart)
    {
        final Map<String, StateReport.Machine> machines = new TreeMap<>();
        for (final CatNode machine : tree.children("machine"))
        {
            final StateReport.Minutes minutes = minutes(machine.children("message"), hourStart);
            final Map<String, StateReport.DomainFigures> domains = new TreeMap<>();
            for (final CatNode domain : machine.children("processDomain"))
            {
                domains.put(ReportMapping.nonNull(domain.string("name")), new StateReport.DomainFigures(
                    minutes(domain.children("detail"), hourStart), new TreeSet<>(domain.texts("ip")), 0, 0));
            }
            final String ip = ReportMapping.nonNull(machine.string("ip"));
            machines.put(ip, new StateReport.Machine(ip, minutes, domains));
        }
        return new StateReport(hourStart, machines);
    }

    private static StateReport.Minutes minutes(final List<CatNode> entries, final long hourStart)
    {
        final StateReport.Minutes out = StateReport.Minutes.empty();
        for (final CatNode e : entries)
        {
            final long id = e.longValue("id", -1);
            final long minute = (id - hourStart) / 60_000L;
            if (id < hourStart || minute >= 60)
            {
                continue;
            }
            final int m = (int)minute;
            out.trees()[m] += Math.max(0, e.longValue("total", 0));
            final double size = e.doubleValue("size", 0);
            out.bytes()[m] += Double.isFinite(size) && size > 0 ? Math.round(size) : 0;
            out.lossTrees()[m] += Math.max(0, e.longValue("totalLoss", 0));
        }
        return out;
    }
}
