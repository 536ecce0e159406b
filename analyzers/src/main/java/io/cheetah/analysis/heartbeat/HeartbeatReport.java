package io.cheetah.analysis.heartbeat;

import io.cheetah.analysis.Report;

import java.util.Comparator;
import java.util.List;

/**
 * An immutable hourly Heartbeat report of one domain, in CAT 3.1.0's shape (docs/protocol.md §4.5): per machine
 * (header IP) its classpath and one period per heartbeat received, each holding every extension detail of the
 * client's status XML as a number. Made by {@link HeartbeatAnalyzer}, {@link HeartbeatReportFormat#decode} and
 * {@link HeartbeatReportFormat#merge}.
 * <p>
 * Canonical order: machines by ip, periods by {@link #PERIOD_ORDER} (minute, then content), extensions and
 * details as the client sent them.
 *
 * @param domain    the client domain.
 * @param hourStart epoch ms of the hour.
 * @param machines  the machines that sent heartbeats.
 */
public record HeartbeatReport(String domain, long hourStart, List<Machine> machines) implements Report
{
    /** The analyzer name, also the report's name in storage. */
    public static final String NAME = "heartbeat";

    /** Minute first; equal minutes (two heartbeats in one minute) ordered by content so merges commute. */
    public static final Comparator<Period> PERIOD_ORDER = HeartbeatReport::compare;

    /**
     * Copies the list.
     */
    public HeartbeatReport
    {
        machines = List.copyOf(machines);
    }

    @Override
    public String analyzer()
    {
        return NAME;
    }

    /**
     * @param ip a machine ip.
     * @return the machine, or null.
     */
    public Machine machine(final String ip)
    {
        for (final Machine m : machines)
        {
            if (m.ip().equals(ip))
            {
                return m;
            }
        }
        return null;
    }

    /**
     * One machine.
     *
     * @param ip        header IP.
     * @param classpath the Java classpath from the last status with a runtime section; "" when the last status
     *                  had none, null when it had a runtime without classpath (CAT renders no attribute then).
     * @param periods   one per heartbeat, at most 61 per hour from one writer.
     */
    public record Machine(String ip, String classpath, List<Period> periods)
    {
        /**
         * Copies the list.
         */
        public Machine
        {
            periods = List.copyOf(periods);
        }
    }

    /**
     * The figures of one heartbeat.
     *
     * @param minute     minute of the hour of the heartbeat's timestamp.
     * @param extensions its extensions.
     */
    public record Period(int minute, List<Extension> extensions)
    {
        /**
         * Copies the list.
         */
        public Period
        {
            extensions = List.copyOf(extensions);
        }

        /**
         * @param id an extension id.
         * @return the extension, or null.
         */
        public Extension extension(final String id)
        {
            for (final Extension e : extensions)
            {
                if (e.id().equals(id))
                {
                    return e;
                }
            }
            return null;
        }
    }

    /**
     * A group of figures ({@code jvm.memory}, {@code System}, an application's own).
     *
     * @param id      extension id.
     * @param details its figures.
     */
    public record Extension(String id, List<Detail> details)
    {
        /**
         * Copies the list.
         */
        public Extension
        {
            details = List.copyOf(details);
        }

        /**
         * @param id a detail id.
         * @return the detail, or null.
         */
        public Detail detail(final String id)
        {
            for (final Detail d : details)
            {
                if (d.id().equals(id))
                {
                    return d;
                }
            }
            return null;
        }
    }

    /**
     * One figure.
     *
     * @param id    detail id.
     * @param value its value (always finite).
     */
    public record Detail(String id, double value)
    {
    }

    private static int compare(final Period a, final Period b)
    {
        int c = Integer.compare(a.minute(), b.minute());
        for (int i = 0; c == 0 && i < Math.min(a.extensions().size(), b.extensions().size()); i++)
        {
            final Extension x = a.extensions().get(i);
            final Extension y = b.extensions().get(i);
            c = x.id().compareTo(y.id());
            for (int k = 0; c == 0 && k < Math.min(x.details().size(), y.details().size()); k++)
            {
                c = x.details().get(k).id().compareTo(y.details().get(k).id());
                if (c == 0)
                {
                    c = Double.compare(x.details().get(k).value(), y.details().get(k).value());
                }
            }
            if (c == 0)
            {
                c = Integer.compare(x.details().size(), y.details().size());
            }
        }
        return c != 0 ? c : Integer.compare(a.extensions().size(), b.extensions().size());
    }
}
