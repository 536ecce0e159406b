package io.cheetah.catimport.nativeformat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Reads a report CAT stored as XML (rows of CAT versions before its binary format, which CAT 3.x still reads) into
 * the same {@link CatNode} tree as {@link NativeDecoder}, driven by the same {@link NativeSchema}: each attribute
 * typed by its field, text elements as texts, child entities by their element names, and elements the schema does not
 * name (CAT's list wrappers such as {@code <processDomains>}) looked through. Attributes the model does not declare
 * are dropped, or kept as dynamic attributes where the entity has them. Used by the import for rows whose content
 * starts with {@code <}. The XML is external input: no DOCTYPE, no entities, bounded depth.
 */
public final class XmlReportReader
{
    private static final DateTimeFormatter CAT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final NativeSchema schema;
    private final ZoneId zone;

    /**
     * @param schema the report kind's fields.
     * @param zone   the zone CAT's server wrote its times in.
     */
    public XmlReportReader(final NativeSchema schema, final ZoneId zone)
    {
        this.schema = schema;
        this.zone = zone;
    }

    /**
     * @param xml CAT's XML of one report (its root element, whatever its name, is the report).
     * @return the tree.
     * @throws NativeFormatException when the XML cannot be read or a value is not of its field's type.
     */
    public CatNode read(final byte[] xml) throws NativeFormatException
    {
        final Element root;
        try
        {
            final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            f.setXIncludeAware(false);
            final DocumentBuilder builder = f.newDocumentBuilder();
            builder.setErrorHandler(null);
            root = builder.parse(new ByteArrayInputStream(xml)).getDocumentElement();
        }
        catch (final ParserConfigurationException | SAXException | IOException e)
        {
            throw new NativeFormatException(0, "XML content cannot be read: " + e.getMessage());
        }
        final CatNode.Builder node = CatNode.builder(schema.root().name());
        fill(node, root, schema.root(), 0);
        return node.build();
    }

    private void fill(final CatNode.Builder node, final Element e, final NativeSchema.Entity entity, final int depth)
        throws NativeFormatException
    {
        if (depth > NativeDecoder.MAX_DEPTH)
        {
            throw new NativeFormatException(0, "XML nested deeper than " + NativeDecoder.MAX_DEPTH + " elements");
        }
        final NamedNodeMap attributes = e.getAttributes();
        for (int i = 0; i < attributes.getLength(); i++)
        {
            final Attr a = (Attr)attributes.item(i);
            final NativeSchema.Field field = entity.named(a.getName(), false);
            if (field != null)
            {
                node.attribute(field.name(), value(field, a.getValue(), entity));
            }
            else if (entity.dynamic())
            {
                node.dynamicAttribute(a.getName(), a.getValue());
            }
        }
        for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling())
        {
            if (!(c instanceof Element child))
            {
                continue;
            }
            final NativeSchema.Field field = entity.named(child.getTagName(), true);
            if (field == null)
            {
                // a wrapper around a list (<processDomains>): its elements belong to this entity
                fill(node, child, entity, depth + 1);
            }
            else if (field.type() == FieldType.TEXT || field.type() == FieldType.TEXTS)
            {
                node.text(field.name(), child.getTextContent());
            }
            else
            {
                final NativeSchema.Entity type = schema.entity(field.entity());
                final CatNode.Builder sub = CatNode.builder(type.name());
                fill(sub, child, type, depth + 1);
                node.child(sub.build());
            }
        }
    }

    private Object value(final NativeSchema.Field field, final String text, final NativeSchema.Entity entity)
        throws NativeFormatException
    {
        final String v = text.trim();
        try
        {
            return switch (field.type())
            {
                case INT -> Integer.parseInt(v);
                case LONG -> Long.parseLong(v);
                case DOUBLE -> Double.parseDouble(v);
                case BOOLEAN -> Boolean.parseBoolean(v);
                case DATE -> LocalDateTime.parse(v, CAT_TIME).atZone(zone).toInstant();
                default -> text;
            };
        }
        catch (final NumberFormatException | DateTimeParseException e)
        {
            throw new NativeFormatException(0, "<" + entity.name() + "> " + field.name() + "=\"" +
                (v.length() > 40 ? v.substring(0, 40) + "..." : v) + "\" is not a " + field.type());
        }
    }
}
