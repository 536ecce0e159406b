package io.cheetah.catimport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * What CAT answered for the vector's hour ({@code cat-mysql/answers/<kind>/<file>.xml}), as a DOM, and CAT's number
 * formats to compare decoded values with.
 */
final class CatAnswer
{
    private CatAnswer()
    {
    }

    /**
     * @param kind the report kind.
     * @param file the file name without {@code .xml}.
     * @return the answer's {@code <report>} element ({@code <topReport>} for Top).
     */
    static Element report(final String kind, final String file)
    {
        try (InputStream in = CatSqlDump.resource("cat-mysql/answers/" + kind + "/" + file + ".xml"))
        {
            final Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in)
                .getDocumentElement();
            final List<Element> reports = children(root, "report");
            return reports.isEmpty() ? children(root, "topReport").get(0) : reports.get(0);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        catch (final ParserConfigurationException | SAXException e)
        {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param parent an element.
     * @param name   a child element name.
     * @return its children of that name, in document order.
     */
    static List<Element> children(final Element parent, final String name)
    {
        final List<Element> found = new ArrayList<>();
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling())
        {
            if (child instanceof Element element && element.getTagName().equals(name))
            {
                found.add(element);
            }
        }
        return found;
    }

    /**
     * @param parent an element.
     * @param name   a child element name.
     * @return the text of its first child of that name, or null.
     */
    static String childText(final Element parent, final String name)
    {
        final List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0).getTextContent();
    }

    /**
     * @param pattern a {@link DecimalFormat} pattern as CAT's models declare them ({@code 0.00}, {@code 0.0}).
     * @param value   a number.
     * @return the number as CAT's XML writes it (DecimalFormat, HALF_EVEN).
     */
    static String format(final String pattern, final double value)
    {
        return new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ROOT)).format(value);
    }
}
