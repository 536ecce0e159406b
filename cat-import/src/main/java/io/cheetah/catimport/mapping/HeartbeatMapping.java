package io.cheetah.catimport.mapping;

import io.cheetah.analysis.heartbeat.HeartbeatReport;
import io.cheetah.catimport.nativeformat.CatNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * CAT's Heartbeat report as Cheetah's {@link HeartbeatReport}: per machine its classpath and one period per stored
 * minute with every extension detail (non-finite values dropped): CAT's page shows the last period it stored for a
 * minute, so that one is taken. CAT 3.1.0 leaves the period's own fields
 * ({@code thread-count} ...) at zero and Cheetah writes them as zeros, so they are not carried; older CAT versions
 * that filled them lose them here. Called by {@link ReportMapping}.
 */
final class HeartbeatMapping
{
    private HeartbeatMapping()
    {
    }

    /**
     * @param tree      a decoded {@code heartbeat-report}.
     * @param domain    the domain of CAT's row.
     * @param hourStart epoch ms of the hour.
     * @return the report.
     */
    static HeartbeatReport map(final CatNode tree, final String domain, final long hourStart)
    {
        final Map<String, HeartbeatReport.Machine> machines = new TreeMap<>();
        for (final CatNode machine : tree.children("machine"))
        {
            // CAT's page shows one period per minute, the last one it stored (a client that sent twice in a minute)
            final Map<Integer, HeartbeatReport.Period> byMinute = new TreeMap<>();
            for (final CatNode period : machine.children("period"))
            {
                final long minute = period.longValue("minute", -1);
                if (minute < 0 || minute > 59)
                {
                    continue;
                }
                final List<HeartbeatReport.Extension> extensions = new ArrayList<>();
                for (final CatNode extension : period.children("extension"))
                {
                    final List<HeartbeatReport.Detail> details = new ArrayList<>();
                    for (final CatNode detail : extension.children("detail"))
                    {
                        final double value = detail.doubleValue("value", Double.NaN);
                        if (Double.isFinite(value))
                        {
                            details.add(new HeartbeatReport.Detail(ReportMapping.nonNull(detail.string("id")),
                                value));
                        }
                    }
                    extensions.add(new HeartbeatReport.Extension(ReportMapping.nonNull(extension.string("id")),
                        details));
                }
                byMinute.put((int)minute, new HeartbeatReport.Period((int)minute, extensions));
            }
            final List<HeartbeatReport.Period> periods = new ArrayList<>(byMinute.values());
            final String ip = ReportMapping.nonNull(machine.string("ip"));
            final HeartbeatReport.Machine previous = machines.get(ip);
            if (previous != null)
            {
                periods.addAll(previous.periods());
            }
            periods.sort(HeartbeatReport.PERIOD_ORDER);
            machines.put(ip, new HeartbeatReport.Machine(ip, machine.string("classpath"), periods));
        }
        return new HeartbeatReport(domain, hourStart, new ArrayList<>(machines.values()));
    }
}
