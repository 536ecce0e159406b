package io.cheetah.server.alert;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.heartbeat.HeartbeatReport;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.query.ReportSource;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The per-minute values of one heartbeat metric ({@code Group:Metric}) of every machine of a domain, for the last
 * minutes up to the last complete one, as CAT's {@code HeartbeatAlert} reads them: each value divided by the
 * metric's unit, a minute without a heartbeat read as 0, and for a counter ({@link HeartbeatDisplay#delta}) its
 * increase over the minute before (0 when the minute before had none, or the counter went back, a restart).
 * Unlike CAT, which computes the increase inside each hour, so that minute 0 of every hour reads 0, the increase is
 * taken across the hour boundary too. Called by the alert evaluator on its own thread.
 */
public final class HeartbeatSeries
{
    private HeartbeatSeries()
    {
    }

    /**
     * @param source  where the heartbeat reports are read.
     * @param domain  the domain.
     * @param key     the metric, {@code Group:Metric}.
     * @param display how the metric is read.
     * @param now     epoch ms; the last minute read is the one before now's.
     * @param minutes how many minutes, oldest first.
     * @return each machine's values, by ip (machines with a heartbeat in any of those minutes, or the one before).
     */
    public static Map<String, double[]> machines(final ReportSource source, final String domain, final String key,
        final HeartbeatDisplay display, final long now, final int minutes)
    {
        final Map<String, double[]> out = withGaps(source, domain, key, display, now, minutes);
        out.values().forEach(TallySeries::zeroed);
        return out;
    }

    /**
     * As {@link #machines}, with NaN for a minute without a heartbeat ("no data", not 0), and for a counter's
     * increase into or out of such a minute.
     *
     * @param source  where the heartbeat reports are read.
     * @param domain  the domain.
     * @param key     the metric, {@code Group:Metric}.
     * @param display how the metric is read.
     * @param now     epoch ms; the last minute read is the one before now's.
     * @param minutes how many minutes, oldest first.
     * @return each machine's values, by ip.
     */
    public static Map<String, double[]> withGaps(final ReportSource source, final String domain, final String key,
        final HeartbeatDisplay display, final long now, final int minutes)
    {
        final int colon = key.indexOf(':');
        final String group = key.substring(0, colon);
        final String metric = key.substring(colon + 1);
        final double unit = display.unit(key);
        final boolean delta = display.delta(key);
        final long last = (now / 60_000L - 1) * 60_000L;
        final int raw = minutes + (delta ? 1 : 0);
        final long first = last - (raw - 1) * 60_000L;
        final Map<String, double[]> values = new TreeMap<>();
        final Map<Long, HeartbeatReport> hours = new HashMap<>();
        for (long hour = HourWindow.hourOf(first); hour <= last; hour += HourWindow.HOUR)
        {
            final Report r = source.report(HeartbeatReport.NAME, domain, hour);
            if (r instanceof HeartbeatReport h)
            {
                hours.put(hour, h);
            }
        }
        for (final HeartbeatReport h : hours.values())
        {
            for (final HeartbeatReport.Machine m : h.machines())
            {
                final double[] series = values.computeIfAbsent(m.ip(), ip ->
                {
                    final double[] v = new double[raw];
                    java.util.Arrays.fill(v, Double.NaN);
                    return v;
                });
                for (final HeartbeatReport.Period p : m.periods())
                {
                    final long at = h.hourStart() + p.minute() * 60_000L;
                    if (at < first || at > last)
                    {
                        continue;
                    }
                    final HeartbeatReport.Extension e = p.extension(group);
                    final HeartbeatReport.Detail d = e == null ? null : e.detail(metric);
                    if (d != null)
                    {
                        series[(int)((at - first) / 60_000L)] = d.value() / unit;
                    }
                }
            }
        }
        if (delta)
        {
            values.replaceAll((ip, s) -> increases(s));
        }
        return values;
    }

    private static double[] increases(final double[] s)
    {
        final double[] out = new double[s.length - 1];
        for (int i = 1; i < s.length; i++)
        {
            final double d = s[i] - s[i - 1];
            out[i - 1] = Double.isNaN(d) ? Double.NaN : s[i - 1] > 0 && d >= 0 ? d : 0;
        }
        return out;
    }
}
