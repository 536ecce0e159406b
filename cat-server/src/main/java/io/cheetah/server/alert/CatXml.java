package io.cheetah.server.alert;

import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one of CAT's exported configuration documents ({@code monitor-rules}, {@code exception-rule-config},
 * {@code alert-policy}, {@code alert-config}, {@code sender-config}) safely: no DOCTYPE, no external entities, a
 * clear error naming the document kind when it is not one. Used by the parsers of this package at start-up.
 */
final class CatXml
{
    private CatXml()
    {
    }

    /**
     * @param xml  the document's text.
     * @param root the root element the kind of document has.
     * @return its root element.
     * @throws IllegalArgumentException when the text is not XML or its root is another element.
     */
    static Element root(final String xml, final String root)
    {
        final Element e;
        try
        {
            final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            e = f.newDocumentBuilder().parse(new InputSource(new StringReader(xml))).getDocumentElement();
        }
        catch (final Exception ex)
        {
            throw new IllegalArgumentException("not a " + root + " document: " + ex.getMessage(), ex);
        }
        if (!root.equals(e.getTagName()))
        {
            throw new IllegalArgumentException("expected <" + root + ">, got <" + e.getTagName() + ">");
        }
        return e;
    }

    /**
     * @param parent an element.
     * @param tag    a child tag, or null for every child element.
     * @return the child elements with that tag, in document order.
     */
    static List<Element> children(final Element parent, final String tag)
    {
        final List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling())
        {
            if (n instanceof Element e && (tag == null || tag.equals(e.getTagName())))
            {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * @param e         an element.
     * @param attribute an attribute holding a whole number.
     * @param absent    the value when the attribute is absent or empty (as CAT's models default it).
     * @return its value.
     * @throws IllegalArgumentException naming the attribute when it is not a whole number.
     */
    static int integer(final Element e, final String attribute, final int absent)
    {
        final String v = e.getAttribute(attribute).trim();
        try
        {
            return v.isEmpty() ? absent : Integer.parseInt(v);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(attribute + " must be a whole number, got '" + v + "'");
        }
    }
}
