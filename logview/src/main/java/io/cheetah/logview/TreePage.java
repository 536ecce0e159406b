package io.cheetah.logview;

import io.cheetah.codec.json.TreeJsonWriter;
import io.cheetah.message.FlatTree;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The logview's HTML form: the web-ui page {@code cheetah-ui/logview.html} (the dashboard's header and bar, its
 * stylesheet, the script {@code /ui/js/logview.js}) with the tree's JSON ({@link TreeJsonWriter}, the same as
 * {@code ?forceDownload=json}) HTML-escaped as the text of its {@code <pre id="tree-data">}. The script parses that
 * text and builds the waterfall and the message table from text nodes, so the page needs no inline script and runs
 * under the dashboard's Content-Security-Policy; nothing from the tree is written as markup. One look-up and one
 * decode per page, as before. The page is read once from the classpath; thread-safe. Used by
 * {@link LogviewHandler}.
 */
final class TreePage
{
    /** Where the page's template is on the classpath (the web-ui module's assets). */
    static final String TEMPLATE = "cheetah-ui/logview.html";
    /** The element whose text receives the tree's JSON. */
    static final String DATA_ELEMENT = "<pre id=\"tree-data\" hidden>";

    private final String head;
    private final String tail;
    private final TreeJsonWriter json = new TreeJsonWriter();

    private TreePage(final String template)
    {
        final int at = template.indexOf(DATA_ELEMENT);
        if (at < 0 || template.indexOf(DATA_ELEMENT, at + 1) >= 0)
        {
            throw new IllegalStateException(TEMPLATE + " must hold exactly one " + DATA_ELEMENT);
        }
        head = template.substring(0, at + DATA_ELEMENT.length());
        tail = template.substring(at + DATA_ELEMENT.length());
    }

    /**
     * @param loader where {@link #TEMPLATE} is found.
     * @return the page.
     * @throws IllegalStateException when the template is missing or has no data element.
     */
    static TreePage load(final ClassLoader loader)
    {
        try (InputStream in = loader.getResourceAsStream(TEMPLATE))
        {
            if (in == null)
            {
                throw new IllegalStateException(TEMPLATE + " is not on the classpath (the web-ui jar is missing)");
            }
            return new TreePage(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("cannot read " + TEMPLATE, e);
        }
    }

    /**
     * @param tree a decoded tree.
     * @return the page, UTF-8.
     */
    byte[] render(final FlatTree tree)
    {
        final String data = json.toJson(tree);
        final StringBuilder out = new StringBuilder(head.length() + tail.length() + data.length() + data.length() / 16);
        out.append(head);
        escape(data, out);
        out.append(tail);
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Appends text with {@code & < >} replaced by entities, so it is safe as element content. */
    static void escape(final String s, final StringBuilder out)
    {
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '&':
                    out.append("&amp;");
                    break;
                case '<':
                    out.append("&lt;");
                    break;
                case '>':
                    out.append("&gt;");
                    break;
                default:
                    out.append(c);
            }
        }
    }
}
