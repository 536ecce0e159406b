package io.cheetah.server.http.api;

import com.fasterxml.jackson.core.JsonGenerator;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a report in CAT's XML shape into the dashboard's JSON, by one fixed rule so the JSON is as stable as the
 * XML that docs/protocol.md pins: an element becomes an object whose properties are its attributes (numbers as JSON
 * numbers, except identifying attributes such as {@code id} and {@code ip}, which stay strings) and, for each child
 * tag, an array of the children with that tag (named tag + {@code s} when an attribute already has the tag's
 * name, as for the root's {@code domain} attribute and {@code <domain>} list); an element with only text becomes that
 * string. Used by the JSON
 * API; thread-safe.
 */
public final class XmlToJson
{
    private static final Set<String> STRING_ATTRIBUTES = Set.of(
        "id", "ip", "domain", "name", "status", "type", "startTime", "endTime", "group-name", "classpath", "path");

    private final XMLInputFactory factory;

    /**
     * Creates a converter whose parser resolves no external entities (the XML is ours, but stay safe).
     */
    public XmlToJson()
    {
        factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    }

    /**
     * Writes the root element of {@code xml} as one JSON object (its tag is not written).
     *
     * @param xml  a well-formed XML document.
     * @param json destination, positioned where a value may be written.
     * @throws IOException from the destination, or when the XML is not well-formed.
     */
    public void write(final String xml, final JsonGenerator json) throws IOException
    {
        final Node root = parse(xml);
        if (root == null)
        {
            json.writeNull();
            return;
        }
        writeNode(root, json);
    }

    /**
     * @param xml a well-formed document.
     * @return the root element's tag, or null for an empty document.
     * @throws IOException when the XML is not well-formed.
     */
    public String rootTag(final String xml) throws IOException
    {
        final Node root = parse(xml);
        return root == null ? null : root.tag;
    }

    /**
     * @param xml a well-formed document.
     * @param tag a child tag of the root, e.g. {@code ip}.
     * @return the texts of the root's text-only children with that tag, in order (CAT lists a report's machines
     * as {@code <ip>} children of the root).
     * @throws IOException when the XML is not well-formed.
     */
    public List<String> rootTexts(final String xml, final String tag) throws IOException
    {
        final Node root = parse(xml);
        final List<String> texts = new ArrayList<>();
        if (root != null && root.children.containsKey(tag))
        {
            for (final Node child : root.children.get(tag))
            {
                if (child.attributes.isEmpty() && child.children.isEmpty())
                {
                    texts.add(child.text.toString().strip());
                }
            }
        }
        return texts;
    }

    private Node parse(final String xml) throws IOException
    {
        if (xml.isBlank())
        {
            return null;
        }
        try
        {
            final XMLStreamReader reader = factory.createXMLStreamReader(new StringReader(xml));
            final List<Node> stack = new ArrayList<>();
            Node root = null;
            while (reader.hasNext())
            {
                final int event = reader.next();
                if (event == XMLStreamConstants.START_ELEMENT)
                {
                    final Node node = new Node(reader.getLocalName());
                    for (int i = 0; i < reader.getAttributeCount(); i++)
                    {
                        node.attributes.put(reader.getAttributeLocalName(i), reader.getAttributeValue(i));
                    }
                    if (stack.isEmpty())
                    {
                        root = node;
                    }
                    else
                    {
                        stack.get(stack.size() - 1).children.computeIfAbsent(node.tag,
                            k -> new ArrayList<>()).add(node);
                    }
                    stack.add(node);
                }
                else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA)
                {
                    if (!stack.isEmpty())
                    {
                        stack.get(stack.size() - 1).text.append(reader.getText());
                    }
                }
                else if (event == XMLStreamConstants.END_ELEMENT)
                {
                    stack.remove(stack.size() - 1);
                }
            }
            return root;
        }
        catch (final XMLStreamException ex)
        {
            throw new IOException("report XML is not well-formed: " + ex.getMessage(), ex);
        }
    }

    private static void writeNode(final Node node, final JsonGenerator json) throws IOException
    {
        if (node.attributes.isEmpty() && node.children.isEmpty())
        {
            json.writeString(node.text.toString().strip());
            return;
        }
        json.writeStartObject();
        for (final Map.Entry<String, String> attribute : node.attributes.entrySet())
        {
            json.writeFieldName(attribute.getKey());
            writeValue(attribute.getKey(), attribute.getValue(), json);
        }
        for (final Map.Entry<String, List<Node>> child : node.children.entrySet())
        {
            // CAT's roots have both a domain attribute and <domain> children (the domain list): keep both
            final String field = node.attributes.containsKey(child.getKey()) ? child.getKey() + "s" : child.getKey();
            json.writeArrayFieldStart(field);
            for (final Node c : child.getValue())
            {
                writeNode(c, json);
            }
            json.writeEndArray();
        }
        if (!node.children.isEmpty() || node.text.toString().isBlank())
        {
            json.writeEndObject();
            return;
        }
        json.writeStringField("text", node.text.toString().strip());
        json.writeEndObject();
    }

    private static void writeValue(final String key, final String value, final JsonGenerator json) throws IOException
    {
        if (!STRING_ATTRIBUTES.contains(key) && numeric(value))
        {
            if (value.indexOf('.') < 0 && value.indexOf('e') < 0 && value.indexOf('E') < 0 && value.length() < 18)
            {
                json.writeNumber(Long.parseLong(value));
            }
            else
            {
                final double d = Double.parseDouble(value);
                if (Double.isFinite(d))
                {
                    json.writeNumber(d);
                }
                else
                {
                    json.writeString(value);
                }
            }
            return;
        }
        json.writeString(value);
    }

    private static boolean numeric(final String s)
    {
        final int n = s.length();
        if (n == 0 || n > 40)
        {
            return false;
        }
        int i = s.charAt(0) == '-' ? 1 : 0;
        boolean digit = false;
        boolean dot = false;
        for (; i < n; i++)
        {
            final char c = s.charAt(i);
            if (c >= '0' && c <= '9')
            {
                digit = true;
            }
            else if (c == '.' && !dot)
            {
                dot = true;
            }
            else if ((c == 'e' || c == 'E') && digit && i + 1 < n)
            {
                return numericExponent(s, i + 1);
            }
            else
            {
                return false;
            }
        }
        return digit;
    }

    private static boolean numericExponent(final String s, final int from)
    {
        int i = from;
        if (s.charAt(i) == '-' || s.charAt(i) == '+')
        {
            i++;
        }
        if (i >= s.length())
        {
            return false;
        }
        for (; i < s.length(); i++)
        {
            if (s.charAt(i) < '0' || s.charAt(i) > '9')
            {
                return false;
            }
        }
        return true;
    }

    private static final class Node
    {
        final String tag;
        final Map<String, String> attributes = new LinkedHashMap<>();
        final Map<String, List<Node>> children = new LinkedHashMap<>();
        final StringBuilder text = new StringBuilder();

        Node(final String tag)
        {
            this.tag = tag;
        }
    }
}
