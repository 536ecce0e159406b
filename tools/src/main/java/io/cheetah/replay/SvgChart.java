package io.cheetah.replay;

import java.util.List;
import java.util.Locale;

/**
 * Draws a line chart of values over time as inline SVG (axes, a few grid lines with labels, one polyline and a
 * legend entry per series), so the replay report is one self-contained HTML file. Series names are escaped.
 * Called by {@link ReplayReport}.
 */
public final class SvgChart
{
    private static final int WIDTH = 900;
    private static final int HEIGHT = 260;
    private static final int LEFT = 80;
    private static final int RIGHT = 20;
    private static final int TOP = 30;
    private static final int BOTTOM = 30;

    /**
     * One series.
     *
     * @param name   legend text.
     * @param colour stroke colour (a CSS colour chosen by the caller, never client data).
     * @param values one value per x.
     */
    public record Line(String name, String colour, double[] values)
    {
    }

    private SvgChart()
    {
    }

    /**
     * @param x     time of each point, seconds.
     * @param lines the series.
     * @param unit  the y axis unit.
     * @return an {@code <svg>} element.
     */
    public static String render(final double[] x, final List<Line> lines, final String unit)
    {
        double maxX = 1;
        double maxY = 0;
        for (final double v : x)
        {
            maxX = Math.max(maxX, v);
        }
        for (final Line l : lines)
        {
            for (final double v : l.values)
            {
                if (Double.isFinite(v))
                {
                    maxY = Math.max(maxY, v);
                }
            }
        }
        maxY = maxY <= 0 ? 1 : niceCeiling(maxY);
        final double w = WIDTH - LEFT - RIGHT;
        final double h = HEIGHT - TOP - BOTTOM;
        final StringBuilder s = new StringBuilder(4096);
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
            .append(HEIGHT).append("\" font-size=\"11\" font-family=\"sans-serif\">\n");
        for (int g = 0; g <= 4; g++)
        {
            final double y = TOP + h - h * g / 4;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>" +
                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT, y, WIDTH - RIGHT, y, LEFT - 4,
                y + 4, label(maxY * g / 4)));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", 4, TOP - 10,
            ReplayReport.escape(unit)));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s s</text>%n",
            WIDTH - RIGHT, HEIGHT - 8, label(maxX)));
        int legendX = LEFT;
        for (final Line l : lines)
        {
            s.append("<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"").append(l.colour).append("\" points=\"");
            for (int i = 0; i < x.length && i < l.values.length; i++)
            {
                final double v = Double.isFinite(l.values[i]) ? Math.max(0, l.values[i]) : 0;
                s.append(String.format(Locale.ROOT, "%.1f,%.1f ", LEFT + w * x[i] / maxX, TOP + h - h * v / maxY));
            }
            s.append("\"/>\n");
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>" +
                "<text x=\"%d\" y=\"%d\">%s</text>%n", legendX, 8, l.colour, legendX + 14, 17,
                ReplayReport.escape(l.name)));
            legendX += 30 + 7 * l.name.length();
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static double niceCeiling(final double v)
    {
        final double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (final double m : new double[] {1, 2, 2.5, 5, 10})
        {
            if (m * p >= v)
            {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String label(final double v)
    {
        if (v >= 1e6)
        {
            return String.format(Locale.ROOT, "%.1fM", v / 1e6);
        }
        if (v >= 1e3)
        {
            return String.format(Locale.ROOT, "%.0fk", v / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
