package io.cheetah.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.analysis.business.BusinessReport;
import io.cheetah.fixtures.Vectors;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class BusinessChartsTest
{
    private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
    /** CAT's hour 18:00 (UTC+8) of 2026-11-28: the first of the four hours its Business page showed at 21:42. */
    private static final long START = Instant.parse("2026-11-28T10:00:00Z").toEpochMilli();
    private static final long HOUR = 3_600_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * CAT 3.1.0 asked at 21:42 (vectors/cat-http/answers/business): domain {@code cat}'s two count metrics, logged
     * by its console in that minute, give two charts of zeros, 111 two-minute points then the last six minutes one
     * by one, and a zero baseline of 120 points. Each chart is CAT's, byte for byte.
     */
    @Test
    void chartsAreCatsByteForByte() throws Exception
    {
        final String cat = Vectors.text("cat-http/answers/business/bar-shop-8.xml");
        final String text = cat.substring(cat.indexOf("<lineCharts>") + 12, cat.indexOf("</lineCharts>"));
        final long now = Instant.parse("2026-11-28T13:42:20Z").toEpochMilli();
        final List<BusinessReport.Segment> minute42 = List.of(new BusinessReport.Segment(42, 3, 3));
        final BusinessReport current = new BusinessReport("cat", START + 3 * HOUR, List.of(
            new BusinessReport.Item("http-request-event", "C", minute42),
            new BusinessReport.Item("http-request-transaction", "C", minute42)));
        final List<String> ours = BusinessCharts.lineCharts("cat", START, Arrays.asList(null, null, null, current),
            now, SHANGHAI);
        assertThat(ours).hasSize(2);
        for (final String chart : ours)
        {
            assertThat(text).contains(chart);
        }
        assertThat(byId(BusinessCharts.xml(ours))).isEqualTo(byId(cat));
    }

    @Test
    void aChartShowsItsKindOfFigurePerMinuteOfEveryHour() throws Exception
    {
        // a closed span of one hour: every minute, no cut
        final BusinessReport hour = new BusinessReport("shop", START, List.of(
            new BusinessReport.Item("orders", "C", List.of(new BusinessReport.Segment(0, 5, 5))),
            new BusinessReport.Item("latency", "T", List.of(new BusinessReport.Segment(1, 2, 300))),
            new BusinessReport.Item("amount <b>", "S,C", List.of(new BusinessReport.Segment(2, 2, 2.5))),
            new BusinessReport.Item("tagged", "TD", List.of(new BusinessReport.Segment(2, 1, 1)))));
        final List<String> charts = BusinessCharts.lineCharts("shop", START, List.of(hour), START + 5 * HOUR,
            SHANGHAI);
        final Map<String, JsonNode> byId = new TreeMap<>();
        for (final String chart : charts)
        {
            byId.put(JSON.readTree(chart).path("id").asText(), JSON.readTree(chart));
        }
        assertThat(byId).containsOnlyKeys("shop:orders:COUNT", "shop:latency:AVG", "shop:amount <b>:SUM");
        final JsonNode orders = byId.get("shop:orders:COUNT");
        assertThat(orders.path("size").asInt()).isEqualTo(60);
        assertThat(orders.path("step").asLong()).isEqualTo(60_000L);
        assertThat(orders.path("start").asText()).isEqualTo("2026/11/28 18:00");
        assertThat(orders.path("title").asText()).isEqualTo("orders(次数)");
        assertThat(orders.path("datas").get(0).path(Long.toString(START)).asDouble()).isEqualTo(5.0);
        assertThat(byId.get("shop:latency:AVG").path("datas").get(0).path(Long.toString(START + 60_000L)).asDouble())
            .isEqualTo(150.0);
        assertThat(byId.get("shop:amount <b>:SUM").path("datas").get(0).path(Long.toString(START + 120_000L))
            .asDouble()).isEqualTo(2.5);
        // Gson's HTML-safe strings: nothing for an XML parser or a page to take as markup
        assertThat(String.join("", charts)).contains("amount \\u003cb\\u003e(总和)").doesNotContain("<b>");
    }

    private static Map<String, JsonNode> byId(final String xml) throws Exception
    {
        final String text = xml.substring(xml.indexOf("<lineCharts>") + 12, xml.indexOf("</lineCharts>"));
        final Map<String, JsonNode> out = new TreeMap<>();
        for (final JsonNode chart : JSON.readTree(text))
        {
            out.put(chart.path("id").asText(), chart);
        }
        return out;
    }

    @Test
    void pointsPerStepAsCatChoosesThem()
    {
        final List<Integer> steps = new ArrayList<>();
        for (final int hours : new int[] {1, 2, 4, 24, 168})
        {
            steps.add(BusinessCharts.interval(hours * 60));
        }
        assertThat(steps).containsExactly(1, 1, 2, 10, 60);
    }
}
