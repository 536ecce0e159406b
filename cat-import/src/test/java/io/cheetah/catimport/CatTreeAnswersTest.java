package io.cheetah.catimport;

import static io.cheetah.catimport.CatAnswer.format;
import static org.assertj.core.api.Assertions.assertThat;

import io.cheetah.catimport.nativeformat.CatNode;
import io.cheetah.catimport.nativeformat.NativeFormatException;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Kinds CAT answers as stored (one row per domain), or as its rows merged by key (State, Top: two rows each): the
 * decoded tree, written out with CAT's number formats and its server's zone ({@code Asia/Shanghai}), is CAT's answer
 * element by element.
 */
class CatTreeAnswersTest
{
    static final DateTimeFormatter CAT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
        .withZone(ZoneId.of("Asia/Shanghai"));

    @ParameterizedTest
    @CsvSource({"matrix, bar-shop-8, bar-shop-8", "matrix, compat-java31, compat-java31",
        "cross, bar-shop-8, bar-shop-8", "cross, compat-java31, compat-java31", "dependency, bar-shop-8, cat"})
    void theStoredTreeIsCatsAnswer(final String kind, final String domain, final String file)
        throws NativeFormatException
    {
        final List<HourlyReportRow> rows = CatSqlDump.rows(kind, domain);
        assertThat(rows).hasSize(1);
        final SoftAssertions soft = new SoftAssertions();
        compare(soft, rows.get(0).decode(), CatAnswer.report(kind, file), kind);
        soft.assertAll();
    }

    @Test
    void stateRowsMergedAreCatsAnswer() throws NativeFormatException
    {
        final KeyedMerge merge = new KeyedMerge(Map.of("machine", "ip", "processDomain", "name", "detail", "id",
            "message", "id"), Set.of("maxTps", "avgTps"));
        mergedRowsAreCatsAnswer("state", merge);
    }

    @Test
    void topRowsMergedAreCatsAnswer() throws NativeFormatException
    {
        final KeyedMerge merge = new KeyedMerge(Map.of("domain", "name", "segment", "id", "error", "id", "machine",
            "id"), Set.of());
        mergedRowsAreCatsAnswer("top", merge);
    }

    private static void mergedRowsAreCatsAnswer(final String kind, final KeyedMerge merge)
        throws NativeFormatException
    {
        final List<HourlyReportRow> rows = CatSqlDump.rows(kind, "cat");
        assertThat(rows).hasSize(2);
        final List<CatNode> reports = new ArrayList<>();
        for (final HourlyReportRow row : rows)
        {
            reports.add(row.decode());
        }
        final SoftAssertions soft = new SoftAssertions();
        compare(soft, merge.merge(reports), CatAnswer.report(kind, "cat"), kind);
        soft.assertAll();
    }

    static void compare(final SoftAssertions soft, final CatNode ours, final Element answer, final String path)
    {
        final Map<String, String> answeredAttributes = new TreeMap<>();
        for (int i = 0; i < answer.getAttributes().getLength(); i++)
        {
            final Node attribute = answer.getAttributes().item(i);
            answeredAttributes.put(attribute.getNodeName(), attribute.getNodeValue());
        }
        final Map<String, String> ourAttributes = new TreeMap<>();
        ours.attributes().forEach((name, value) -> ourAttributes.put(name, text(value, answeredAttributes.get(name))));
        soft.assertThat(ourAttributes).as(path + " attributes").isEqualTo(answeredAttributes);

        final Map<String, List<String>> answeredTexts = new TreeMap<>();
        final List<Element> answeredChildren = new ArrayList<>();
        collect(answer, answeredTexts, answeredChildren);
        final Map<String, List<String>> ourTexts = new TreeMap<>();
        ours.texts().forEach((name, values) ->
        {
            if (!values.isEmpty())
            {
                ourTexts.put(name, values);
            }
        });
        soft.assertThat(ourTexts).as(path + " texts").isEqualTo(answeredTexts);

        soft.assertThat(ours.children()).as(path + " children").hasSameSizeAs(answeredChildren);
        for (int i = 0; i < Math.min(ours.children().size(), answeredChildren.size()); i++)
        {
            final CatNode child = ours.children().get(i);
            final Element element = answeredChildren.get(i);
            final String where = path + "/" + child.name() + "[" + i + "]";
            soft.assertThat(child.name()).as(where).isEqualTo(element.getTagName());
            compare(soft, child, element, where);
        }
    }

    /**
     * Splits an answer element's children into text elements and entities; a wrapper CAT writes around a list
     * ({@code xml-indent}: no attributes, only elements, e.g. State's {@code <processDomains>}) is looked through.
     */
    private static void collect(final Element parent, final Map<String, List<String>> texts,
        final List<Element> entities)
    {
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling())
        {
            if (child instanceof Element element)
            {
                if (element.getAttributes().getLength() == 0 && !hasElementChild(element))
                {
                    texts.computeIfAbsent(element.getTagName(), key -> new ArrayList<>())
                        .add(element.getTextContent());
                }
                else if (element.getAttributes().getLength() == 0)
                {
                    collect(element, texts, entities);
                }
                else
                {
                    entities.add(element);
                }
            }
        }
    }

    private static boolean hasElementChild(final Element element)
    {
        for (Node child = element.getFirstChild(); child != null; child = child.getNextSibling())
        {
            if (child instanceof Element)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param value    a decoded attribute.
     * @param answered CAT's text for it, to take the number of decimals from (null when CAT wrote none).
     * @return the value as CAT writes it.
     */
    static String text(final Object value, final String answered)
    {
        if (value instanceof Instant instant)
        {
            return CAT_TIME.format(instant);
        }
        if (value instanceof Double number)
        {
            final int dot = answered == null ? -1 : answered.indexOf('.');
            return dot < 0 ? format("0", number) : format("0." + "0".repeat(answered.length() - dot - 1), number);
        }
        return String.valueOf(value);
    }
}
