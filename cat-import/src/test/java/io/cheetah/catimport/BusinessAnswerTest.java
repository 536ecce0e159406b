package io.cheetah.catimport;

import static org.assertj.core.api.Assertions.assertThat;

import io.cheetah.catimport.nativeformat.CatNode;
import io.cheetah.catimport.nativeformat.NativeFormatException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * CAT's Business page answers with line charts, not the report: each {@code COUNT} chart of domain {@code cat} has
 * one point per two minutes, the counts of its two minutes per minute. The stored business row, so bucketed, gives
 * those points ({@code cat-mysql/answers/business/}).
 */
class BusinessAnswerTest
{
    private static final Pattern CHART_ID = Pattern.compile("\"id\":\"cat:([^\"]+):COUNT\"");
    private static final Pattern FIRST_SERIES = Pattern.compile("\"datas\":\\[\\{([^}]*)\\}");
    private static final Pattern POINT = Pattern.compile("\"(\\d+)\":([0-9.E-]+)");
    private static final long STEP = 120_000;

    @Test
    void storedCountsGiveCatsChartPoints() throws NativeFormatException, IOException
    {
        final List<HourlyReportRow> rows = CatSqlDump.rows("business", "cat");
        assertThat(rows).hasSize(1);
        final CatNode report = rows.get(0).decode();
        final long hour = report.instant("startTime").toEpochMilli();
        final Map<String, Map<Long, Double>> ours = new TreeMap<>();
        for (final CatNode item : report.children("business-item"))
        {
            final Map<Long, Double> points = ours.computeIfAbsent(item.string("id"), id -> new TreeMap<>());
            for (final CatNode segment : item.children("segment"))
            {
                final long bucket = hour + segment.longValue("id", -1) / 2 * STEP;
                points.merge(bucket, segment.longValue("count", 0) / 2.0, Double::sum);
            }
        }

        final String answer;
        try (InputStream in = CatSqlDump.resource("cat-mysql/answers/business/bar-shop-8.xml"))
        {
            answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        final Map<String, Map<Long, Double>> charted = new TreeMap<>();
        for (final String chart : answer.split("\\{\"size\":"))
        {
            final Matcher id = CHART_ID.matcher(chart);
            final Matcher series = FIRST_SERIES.matcher(chart);
            if (!id.find() || !series.find())
            {
                continue;
            }
            final Map<Long, Double> points = charted.computeIfAbsent(id.group(1), key -> new TreeMap<>());
            final Matcher point = POINT.matcher(series.group(1));
            while (point.find())
            {
                final double value = Double.parseDouble(point.group(2));
                if (value != 0)
                {
                    points.put(Long.parseLong(point.group(1)), value);
                }
            }
        }
        assertThat(charted).hasSize(2);
        assertThat(ours).isEqualTo(charted);
    }
}
