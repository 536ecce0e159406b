package io.cheetah.report;

import java.io.IOException;

/**
 * A minimal streaming XML writer for report output: elements, attributes and text, with every client-supplied
 * string escaped (and characters XML 1.0 forbids replaced by U+FFFD), so a report stays well-formed whatever the
 * traffic. Indents two spaces per level like CAT's generated builders. Not thread-safe; one per rendering.
 */
public final class XmlWriter
{
    private final Appendable out;
    private int depth;
    private boolean tagOpen;
    private boolean hadChildren;

    /**
     * @param out destination.
     */
    public XmlWriter(final Appendable out)
    {
        this.out = out;
    }

    /**
     * Writes the XML declaration.
     *
     * @return this.
     * @throws IOException from the destination.
     */
    public XmlWriter declaration() throws IOException
    {
        out.append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
        return this;
    }

    /**
     * Opens an element; attributes may follow until content or another element is written.
     *
     * @param name element name (a constant, not escaped).
     * @return this.
     * @throws IOException from the destination.
     */
    public XmlWriter start(final String name) throws IOException
    {
        closeStartTag(true);
        indent();
        out.append('<').append(name);
        tagOpen = true;
        hadChildren = false;
        depth++;
        return this;
    }

    /**
     * @param name  attribute name (a constant).
     * @param value attribute value (escaped); null writes nothing.
     * @return this.
     * @throws IOException from the destination.
     */
    public XmlWriter attribute(final String name, final String value) throws IOException
    {
        if (value != null)
        {
            out.append(' ').append(name).append("=\"");
            escape(value, out);
            out.append('"');
        }
        return this;
    }

    /**
     * @param name  attribute name.
     * @param value a whole number.
     * @return this.
     * @throws IOException from the destination.
     */
    public XmlWriter attribute(final String name, final long value) throws IOException
    {
        out.append(' ').append(name).append("=\"").append(Long.toString(value)).append('"');
        return this;
    }

    /**
     * Writes a simple element {@code <name>text</name>} on its own line.
     *
     * @param name element name.
     * @param text content (escaped).
     * @return this.
     * @throws IOException from the destination.
     */
    public XmlWriter element(final String name, final String text) throws IOException
    {
        closeStartTag(true);
        indent();
        out.append('<').append(name).append('>');
        escape(text, out);
        out.append("</").append(name).append(">\n");
        return this;
    }

    /**
     * Closes the innermost open element.
     *
     * @param name its name.
     * @return this.
     * @throws IOException from the destination.
     */
    public XmlWriter end(final String name) throws IOException
    {
        depth--;
        if (tagOpen)
        {
            out.append("/>\n");
            tagOpen = false;
        }
        else
        {
            indent();
            out.append("</").append(name).append(">\n");
        }
        hadChildren = true;
        return this;
    }

    private void closeStartTag(final boolean child) throws IOException
    {
        if (tagOpen)
        {
            out.append(child ? ">\n" : ">");
            tagOpen = false;
        }
    }

    private void indent() throws IOException
    {
        for (int i = 0; i < depth; i++)
        {
            out.append("  ");
        }
    }

    /**
     * Escapes text for XML content and attribute values.
     *
     * @param s   text (null treated as empty).
     * @param out destination.
     * @throws IOException from the destination.
     */
    public static void escape(final CharSequence s, final Appendable out) throws IOException
    {
        if (s == null)
        {
            return;
        }
        for (int i = 0, n = s.length(); i < n; i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                case '\t', '\n', '\r' -> out.append("&#").append(Integer.toString(c)).append(';');
                default ->
                {
                    if (c < 0x20 || c == 0xFFFE || c == 0xFFFF)
                    {
                        out.append('\uFFFD');
                    }
                    else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1)))
                    {
                        out.append(c).append(s.charAt(++i));
                    }
                    else if (Character.isSurrogate(c))
                    {
                        out.append('\uFFFD');
                    }
                    else
                    {
                        out.append(c);
                    }
                }
            }
        }
    }
}
