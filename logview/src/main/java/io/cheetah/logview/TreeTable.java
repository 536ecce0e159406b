package io.cheetah.logview;

import io.cheetah.message.FlatTree;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * A tree as a static HTML table, as CAT's {@code HtmlMessageCodec} writes one for the model API's logview: one row
 * per message, indented by depth, with its kind letter, time, type, name, status, duration and data. No script and
 * no attribute carries client text; every client string is escaped. Used by {@link ModelLogviewHandler}.
 */
final class TreeTable
{
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private TreeTable()
    {
    }

    /**
     * @param tree a decoded tree.
     * @return the table.
     */
    static String render(final FlatTree tree)
    {
        final StringBuilder out = new StringBuilder(256 + tree.size() * 160);
        out.append("<table class=\"logview\">\r\n<tr class=\"header\"><td colspan=\"4\">");
        TreePage.escape(tree.domain() + " " + tree.hostname() + " " + tree.ip() + " " + tree.threadGroupName() + " " +
            tree.threadName() + " " + tree.messageId(), out);
        out.append("</td></tr>\r\n");
        final int[] depth = new int[tree.size()];
        for (int i = 0; i < tree.size(); i++)
        {
            final int parent = tree.parent(i);
            depth[i] = parent == FlatTree.NONE ? 0 : depth[parent] + 1;
            out.append("<tr class=\"").append(i % 2 == 0 ? "odd" : "even").append("\"><td>");
            out.append("&nbsp;&nbsp;".repeat(Math.min(depth[i], 40))).append(tree.kind(i).tag()).append(' ');
            TreePage.escape(TIME.format(Instant.ofEpochMilli(tree.timestamp(i)).atZone(ZoneId.systemDefault())), out);
            out.append("</td><td>");
            TreePage.escape(tree.type(i), out);
            out.append("</td><td>");
            TreePage.escape(tree.name(i), out);
            out.append("</td><td>");
            TreePage.escape(tree.status(i), out);
            if (tree.isTransaction(i))
            {
                out.append(' ').append(tree.durationMicros(i)).append("us");
            }
            final String data = tree.data(i);
            if (!data.isEmpty())
            {
                out.append(' ');
                TreePage.escape(data, out);
            }
            out.append("</td></tr>\r\n");
        }
        return out.append("</table>\r\n").toString();
    }
}
