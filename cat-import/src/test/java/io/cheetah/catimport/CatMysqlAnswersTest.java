package io.cheetah.catimport;

import static io.cheetah.catimport.CatAnswer.childText;
import static io.cheetah.catimport.CatAnswer.children;
import static io.cheetah.catimport.CatAnswer.format;
import static org.assertj.core.api.Assertions.assertThat;

import io.cheetah.catimport.nativeformat.CatNode;
import io.cheetah.catimport.nativeformat.NativeFormatException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

/**
 * The rows CAT 3.1.0 stored for the vector's hour, decoded and merged as CAT merges them for {@code ip=All}, give
 * what CAT answered at its URLs for that hour ({@code cat-mysql/answers/}).
 */
class CatMysqlAnswersTest
{
    private static final String[] LINES = {"line95Value", "line99Value", "line999Value", "line90Value", "line50Value",
        "line9999Value"};

    @ParameterizedTest
    @ValueSource(strings = {"bar-shop-8", "compat-java31"})
    void transactionTypesMatchCatsAnswer(final String domain) throws NativeFormatException
    {
        final Map<String, TypeSum> merged = new LinkedHashMap<>();
        final List<HourlyReportRow> rows = CatSqlDump.rows("transaction", domain);
        assertThat(rows).isNotEmpty();
        for (final HourlyReportRow row : rows)
        {
            for (final CatNode machine : row.decode().children("machine"))
            {
                for (final CatNode type : machine.children("type"))
                {
                    merged.computeIfAbsent(type.string("id"), id -> new TypeSum()).add(type);
                }
            }
        }
        final Element answer = CatAnswer.report("transaction", domain);
        final Element all = children(answer, "machine").get(0);
        assertThat(all.getAttribute("ip")).isEqualTo("All");
        final List<String> answered = new ArrayList<>();
        final SoftAssertions soft = new SoftAssertions();
        for (final Element type : children(all, "type"))
        {
            final String id = type.getAttribute("id");
            answered.add(id);
            final TypeSum sum = merged.get(id);
            soft.assertThat(sum).as(id).isNotNull();
            if (sum == null)
            {
                continue;
            }
            final double avg = sum.sum / sum.total;
            soft.assertThat(type.getAttribute("totalCount")).as(id + " totalCount").isEqualTo(Long.toString(sum.total));
            soft.assertThat(type.getAttribute("failCount")).as(id + " failCount").isEqualTo(Long.toString(sum.fail));
            soft.assertThat(type.getAttribute("failPercent")).as(id + " failPercent")
                .isEqualTo(format("0.00", 100.0 * sum.fail / sum.total));
            soft.assertThat(type.getAttribute("min")).as(id + " min").isEqualTo(format("0.00", sum.min));
            soft.assertThat(type.getAttribute("max")).as(id + " max").isEqualTo(format("0.00", sum.max));
            soft.assertThat(type.getAttribute("avg")).as(id + " avg").isEqualTo(format("0.0", avg));
            soft.assertThat(type.getAttribute("sum")).as(id + " sum").isEqualTo(format("0.0", sum.sum));
            soft.assertThat(type.getAttribute("sum2")).as(id + " sum2").isEqualTo(format("0.0", sum.sum2));
            soft.assertThat(type.getAttribute("std")).as(id + " std").isEqualTo(format("0.0", sum.std(avg)));
            for (int i = 0; i < LINES.length; i++)
            {
                soft.assertThat(type.getAttribute(LINES[i])).as(id + " " + LINES[i])
                    .isEqualTo(format("0.00", sum.lines[i] / sum.total));
            }
            soft.assertThat(Double.parseDouble(type.getAttribute("tps"))).as(id + " tps")
                .isCloseTo(sum.tps, org.assertj.core.data.Offset.offset(0.01));
            soft.assertThat(childText(type, "successMessageUrl")).as(id + " successMessageUrl").isEqualTo(sum.success);
            soft.assertThat(childText(type, "longestMessageUrl")).as(id + " longestMessageUrl").isEqualTo(sum.longest);
        }
        soft.assertThat(answered).as("types").containsExactlyInAnyOrderElementsOf(merged.keySet());
        soft.assertAll();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bar-shop-8", "compat-java31", "cat"})
    void transactionMinutesAddUpToTheirNames(final String domain) throws NativeFormatException
    {
        final SoftAssertions soft = new SoftAssertions();
        for (final HourlyReportRow row : CatSqlDump.rows("transaction", domain))
        {
            for (final CatNode machine : row.decode().children("machine"))
            {
                for (final CatNode type : machine.children("type"))
                {
                    long names = 0;
                    for (final CatNode name : type.children("name"))
                    {
                        final String what = machine.string("ip") + " " + type.string("id") + " " + name.string("id");
                        names += name.longValue("totalCount", 0);
                        long count = 0;
                        long fails = 0;
                        double sum = 0;
                        double max = -1;
                        for (final CatNode range : name.children("range"))
                        {
                            soft.assertThat(range.longValue("value", -1)).as(what + " minute").isBetween(0L, 59L);
                            count += range.longValue("count", 0);
                            fails += range.longValue("fails", 0);
                            sum += range.doubleValue("sum", 0);
                            max = Math.max(max, range.doubleValue("max", -1));
                        }
                        long durations = 0;
                        for (final CatNode duration : name.children("duration"))
                        {
                            durations += duration.longValue("count", 0);
                        }
                        soft.assertThat(count).as(what + " range counts").isEqualTo(name.longValue("totalCount", 0));
                        soft.assertThat(fails).as(what + " range fails").isEqualTo(name.longValue("failCount", 0));
                        soft.assertThat(sum).as(what + " range sums")
                            .isCloseTo(name.doubleValue("sum", 0), org.assertj.core.data.Offset.offset(0.001));
                        soft.assertThat(max).as(what + " range max").isEqualTo(name.doubleValue("max", 0));
                        soft.assertThat(durations).as(what + " durations")
                            .isEqualTo(name.longValue("totalCount", 0));
                    }
                    soft.assertThat(names).as(type.string("id") + " names").isEqualTo(type.longValue("totalCount", 0));
                }
            }
        }
        soft.assertAll();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bar-shop-8", "compat-java31"})
    void eventTypesMatchCatsAnswer(final String domain) throws NativeFormatException
    {
        final Map<String, long[]> counts = new LinkedHashMap<>();
        final Map<String, Double> tps = new LinkedHashMap<>();
        final Map<String, String> success = new LinkedHashMap<>();
        final SoftAssertions soft = new SoftAssertions();
        for (final HourlyReportRow row : CatSqlDump.rows("event", domain))
        {
            for (final CatNode machine : row.decode().children("machine"))
            {
                for (final CatNode type : machine.children("type"))
                {
                    final String id = type.string("id");
                    final long[] c = counts.computeIfAbsent(id, key -> new long[2]);
                    c[0] += type.longValue("totalCount", 0);
                    c[1] += type.longValue("failCount", 0);
                    tps.merge(id, type.doubleValue("tps", 0), Double::sum);
                    if (type.text("successMessageUrl") != null)
                    {
                        success.putIfAbsent(id, type.text("successMessageUrl"));
                    }
                    long names = 0;
                    for (final CatNode name : type.children("name"))
                    {
                        names += name.longValue("totalCount", 0);
                        long minutes = 0;
                        for (final CatNode range : name.children("range"))
                        {
                            minutes += range.longValue("count", 0);
                        }
                        soft.assertThat(minutes).as(id + " " + name.string("id") + " ranges")
                            .isEqualTo(name.longValue("totalCount", 0));
                    }
                    soft.assertThat(names).as(id + " names").isEqualTo(type.longValue("totalCount", 0));
                }
            }
        }
        final Element all = children(CatAnswer.report("event", domain), "machine").get(0);
        final List<String> answered = new ArrayList<>();
        for (final Element type : children(all, "type"))
        {
            final String id = type.getAttribute("id");
            answered.add(id);
            final long[] c = counts.getOrDefault(id, new long[2]);
            soft.assertThat(type.getAttribute("totalCount")).as(id + " totalCount").isEqualTo(Long.toString(c[0]));
            soft.assertThat(type.getAttribute("failCount")).as(id + " failCount").isEqualTo(Long.toString(c[1]));
            soft.assertThat(type.getAttribute("failPercent")).as(id + " failPercent")
                .isEqualTo(format("0.00", c[0] == 0 ? 0 : 100.0 * c[1] / c[0]));
            soft.assertThat(Double.parseDouble(type.getAttribute("tps"))).as(id + " tps")
                .isCloseTo(tps.getOrDefault(id, -1.0), org.assertj.core.data.Offset.offset(0.01));
            soft.assertThat(childText(type, "successMessageUrl")).as(id + " successMessageUrl")
                .isEqualTo(success.get(id));
        }
        soft.assertThat(answered).as("types").containsExactlyInAnyOrderElementsOf(counts.keySet());
        soft.assertAll();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bar-shop-8", "compat-java31"})
    void problemEntitiesMatchCatsAnswer(final String domain) throws NativeFormatException
    {
        // machine ip -> entity id -> "type|status" and duration value -> count and messages
        final Map<String, Map<String, String>> ours = new TreeMap<>();
        for (final HourlyReportRow row : CatSqlDump.rows("problem", domain))
        {
            for (final CatNode machine : row.decode().children("machine"))
            {
                final Map<String, String> entities = ours.computeIfAbsent(machine.string("ip"), ip -> new TreeMap<>());
                for (final CatNode entity : machine.children("entity"))
                {
                    final Map<Long, String> durations = new TreeMap<>();
                    for (final CatNode duration : entity.children("duration"))
                    {
                        durations.put(duration.longValue("value", -1), duration.longValue("count", 0) + " "
                            + duration.texts("message"));
                    }
                    entities.merge(entity.string("id"), entity.string("type") + "|" + entity.string("status") + " "
                        + durations, (a, b) -> a + " + " + b);
                }
            }
        }
        final Map<String, Map<String, String>> answered = new TreeMap<>();
        for (final Element machine : children(CatAnswer.report("problem", domain), "machine"))
        {
            final Map<String, String> entities = answered.computeIfAbsent(machine.getAttribute("ip"),
                ip -> new TreeMap<>());
            for (final Element entity : children(machine, "entity"))
            {
                final Map<Long, String> durations = new TreeMap<>();
                for (final Element duration : children(entity, "duration"))
                {
                    final List<String> messages = new ArrayList<>();
                    children(duration, "message").forEach(message -> messages.add(message.getTextContent()));
                    durations.put(Long.parseLong(duration.getAttribute("value")), duration.getAttribute("count") + " "
                        + messages);
                }
                entities.merge(entity.getAttribute("id"), entity.getAttribute("type") + "|"
                    + entity.getAttribute("status") + " " + durations, (a, b) -> a + " + " + b);
            }
        }
        assertThat(ours).isNotEmpty();
        assertThat(ours).isEqualTo(answered);
    }

    @Test
    void heartbeatPeriodsMatchCatsAnswer() throws NativeFormatException
    {
        assertThat(CatSqlDump.rows("heartbeat", "bar-shop-8")).isEmpty();
        for (final String ip : new String[] {"10.9.0.1", "10.9.0.2"})
        {
            assertThat(children(CatAnswer.report("heartbeat", "bar-shop-8@" + ip), "machine")).isEmpty();
        }
        // per machine, CAT's page shows one period per minute: the last one stored
        final Map<String, CatNode> machines = new LinkedHashMap<>();
        final Map<String, Map<Long, CatNode>> periods = new LinkedHashMap<>();
        for (final HourlyReportRow row : CatSqlDump.rows("heartbeat", "compat-java31"))
        {
            for (final CatNode machine : row.decode().children("machine"))
            {
                machines.put(machine.string("ip"), machine);
                final Map<Long, CatNode> byMinute = periods.computeIfAbsent(machine.string("ip"),
                    ip -> new TreeMap<>());
                for (final CatNode period : machine.children("period"))
                {
                    byMinute.put(period.longValue("minute", -1), period);
                }
            }
        }
        final Element machine = children(CatAnswer.report("heartbeat", "compat-java31@192.0.2.2"), "machine").get(0);
        final String ip = machine.getAttribute("ip");
        assertThat(machines).containsKey(ip);
        final SoftAssertions soft = new SoftAssertions();
        soft.assertThat(machines.get(ip).string("classpath")).isEqualTo(machine.getAttribute("classpath"));
        final List<Long> minutes = new ArrayList<>();
        for (final Element period : children(machine, "period"))
        {
            final long minute = Long.parseLong(period.getAttribute("minute"));
            minutes.add(minute);
            final CatNode our = periods.get(ip).get(minute);
            for (int i = 0; i < period.getAttributes().getLength(); i++)
            {
                final String attribute = period.getAttributes().item(i).getNodeName();
                final Object value = our.attribute(attribute);
                final String text = value instanceof Double d
                    ? ("system-load-average".equals(attribute) || "cat-message-size".equals(attribute)
                        ? format("0.00", d) : d.toString())
                    : String.valueOf(value);
                soft.assertThat(text).as(minute + " " + attribute).isEqualTo(period.getAttribute(attribute));
            }
            final Map<String, String> answeredDetails = new TreeMap<>();
            for (final Element extension : children(period, "extension"))
            {
                for (final Element detail : children(extension, "detail"))
                {
                    answeredDetails.put(extension.getAttribute("id") + "/" + detail.getAttribute("id"),
                        detail.getAttribute("value"));
                }
            }
            final Map<String, String> ourDetails = new TreeMap<>();
            for (final CatNode extension : our.children("extension"))
            {
                for (final CatNode detail : extension.children("detail"))
                {
                    ourDetails.put(extension.string("id") + "/" + detail.string("id"),
                        String.valueOf(detail.doubleValue("value", Double.NaN)));
                }
            }
            soft.assertThat(ourDetails).as(minute + " extensions").isEqualTo(answeredDetails);
        }
        soft.assertThat(minutes).as("minutes").containsExactlyElementsOf(periods.get(ip).keySet());
        soft.assertAll();
    }

    /** One transaction type merged over machines and rows as CAT's "All" does (docs/protocol.md §4.7). */
    private static final class TypeSum
    {
        private long total;
        private long fail;
        private double sum;
        private double sum2;
        private double min = 86_400_000;
        private double max = -1;
        private double tps;
        private final double[] lines = new double[LINES.length];
        private String success;
        private String longest;

        void add(final CatNode type)
        {
            final long count = type.longValue("totalCount", 0);
            total += count;
            fail += type.longValue("failCount", 0);
            sum += type.doubleValue("sum", 0);
            sum2 += type.doubleValue("sum2", 0);
            tps += type.doubleValue("tps", 0);
            min = Math.min(min, type.doubleValue("min", min));
            final double typeMax = type.doubleValue("max", -1);
            if (typeMax > max)
            {
                max = typeMax;
                longest = type.text("longestMessageUrl");
            }
            for (int i = 0; i < LINES.length; i++)
            {
                lines[i] += type.doubleValue(LINES[i], 0) * count;
            }
            if (success == null)
            {
                success = type.text("successMessageUrl");
            }
        }

        double std(final double avg)
        {
            final double variance = sum2 / total - avg * avg;
            if (variance <= 0 || total <= 1)
            {
                return 0;
            }
            return total == 2 ? max - avg : Math.sqrt(variance);
        }
    }
}
