package io.cheetah.analysis.heartbeat;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.DomainHoursAnalyzer;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.Report;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the Heartbeat reports of one partition of domains (docs/protocol.md §4.5): for every heartbeat of type
 * {@code heartbeat} (any case) it parses the status XML with {@link StatusXmlParser} and appends a period
 * (minute of the heartbeat's timestamp) to the sender's machine, at most 61 per machine and hour as in CAT.
 * Heartbeats come once a minute per machine, so this path may allocate. Single writer: every method runs on the
 * partition's ring consumer thread.
 */
public final class HeartbeatAnalyzer extends DomainHoursAnalyzer<HeartbeatAnalyzer.Live, HeartbeatLoss>
{
    /**
     * Index 0, HIGH; takes trees holding at least one heartbeat, as CAT's {@code isEligable} does. Listed in
     * {@link io.cheetah.analysis.AnalyzerCatalog}.
     */
    public static final AnalyzerSpec TYPE = new AnalyzerSpec(HeartbeatReport.NAME, 0, Level.HIGH,
        AnalyzerSpec.holding(MessageKind.HEARTBEAT), new HeartbeatReportFormat(), HeartbeatAnalyzer::new);

    /** CAT appends a period while a machine holds at most 60, so 61 per hour. */
    public static final int MAX_PERIODS = 61;

    private final StatusXmlParser parser;

    /**
     * @param context partition and caps.
     */
    public HeartbeatAnalyzer(final AnalyzerContext context)
    {
        super(context, HeartbeatLoss.class, HeartbeatLoss.DOMAIN_DROPPED);
        this.parser = new StatusXmlParser(counters, limits.maxNameLength());
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        final Live live = live(hourStart, tree.domainSymbol(), tree.domain(), tree.wideSource());
        if (live == null)
        {
            return;
        }
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            if (tree.kind(i) == MessageKind.HEARTBEAT && "heartbeat".equalsIgnoreCase(tree.type(i)))
            {
                final LiveMachine machine = live.machine(tree.ip());
                if (machine == null)
                {
                    counters.increment(HeartbeatLoss.MACHINE_DROPPED);
                    continue;
                }
                final StatusXmlParser.Status status =
                    parser.parse(tree.dataBuffer(), tree.dataOffset(i), tree.dataLength(i));
                if (status == null)
                {
                    continue;
                }
                machine.classpath = status.hasRuntime() ? status.classpath() : "";
                if (machine.periods.size() >= MAX_PERIODS)
                {
                    counters.increment(HeartbeatLoss.PERIOD_DROPPED);
                    continue;
                }
                final int minute = (int)(tree.timestamp(i) / 60_000L % 60);
                machine.periods.add(new HeartbeatReport.Period(minute, status.extensions()));
            }
        }
    }

    @Override
    public void restore(final Report report)
    {
        final HeartbeatReport saved = (HeartbeatReport)report;
        final Live live = live(saved.hourStart(), saved.domain(), false);
        if (live == null)
        {
            return;
        }
        for (final HeartbeatReport.Machine m : saved.machines())
        {
            final LiveMachine machine = live.machine(m.ip());
            if (machine == null)
            {
                counters.increment(HeartbeatLoss.MACHINE_DROPPED);
                continue;
            }
            if (machine.classpath == null || machine.classpath.isEmpty())
            {
                machine.classpath = m.classpath();
            }
            for (final HeartbeatReport.Period p : m.periods())
            {
                if (machine.periods.size() >= MAX_PERIODS)
                {
                    counters.increment(HeartbeatLoss.PERIOD_DROPPED);
                    break;
                }
                machine.periods.add(p);
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

    /** One domain's report for one hour, mutable. */
    final class Live
    {
        private final String domain;
        private final long hourStart;
        private final Map<String, LiveMachine> machines = new LinkedHashMap<>();

        Live(final String domain, final long hourStart)
        {
            this.domain = domain;
            this.hourStart = hourStart;
        }

        LiveMachine machine(final String ip)
        {
            LiveMachine m = machines.get(ip);
            if (m == null)
            {
                if (machines.size() >= limits.maxMachinesPerDomain())
                {
                    return null;
                }
                m = new LiveMachine(ip.length() <= limits.maxNameLength() ? ip : ip.substring(0,
                    limits.maxNameLength()));
                machines.put(ip, m);
            }
            return m;
        }

        HeartbeatReport toReport()
        {
            final List<HeartbeatReport.Machine> out = new ArrayList<>(machines.size());
            for (final LiveMachine m : machines.values())
            {
                final List<HeartbeatReport.Period> periods = new ArrayList<>(m.periods);
                periods.sort(HeartbeatReport.PERIOD_ORDER);
                out.add(new HeartbeatReport.Machine(m.ip, m.classpath, periods));
            }
            out.sort(Comparator.comparing(HeartbeatReport.Machine::ip));
            return new HeartbeatReport(domain, hourStart, out);
        }
    }

    private static final class LiveMachine
    {
        private final String ip;
        private final List<HeartbeatReport.Period> periods = new ArrayList<>();
        private String classpath = "";

        LiveMachine(final String ip)
        {
            this.ip = ip;
        }
    }
}
