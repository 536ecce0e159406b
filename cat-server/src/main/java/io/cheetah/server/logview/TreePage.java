package io.cheetah.server.logview;

import io.cheetah.message.FlatTree;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Renders a decoded tree as an HTML page: the header, then one table row per message in tree order, indented by
 * depth. The walk is iterative (depths come from the parent links, since parents precede children), so deep trees
 * cannot overflow the stack; indentation stops growing at 40 levels and the depth is printed instead. Every string
 * from the client is HTML-escaped. Used by {@link LogviewHandler}.
 */
final class TreePage
{
    private static final int MAX_INDENT = 40;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
        .withZone(ZoneOffset.UTC);

    private TreePage()
    {
    }

    static void render(final FlatTree tree, final String messageId, final StringBuilder out)
    {
        out.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Logview ");
        escape(messageId, out);
        out.append("</title><style>body{font-family:monospace}td{padding:1px 6px;vertical-align:top}")
            .append(".data{white-space:pre-wrap;word-break:break-all}.fail{color:#c00}</style></head><body>\n<h2>");
        escape(messageId, out);
        out.append("</h2>\n<table class=\"header\">");
        row("domain", tree.domain(), out);
        row("hostname", tree.hostname(), out);
        row("ip", tree.ip(), out);
        row("thread", tree.threadGroupName() + " / " + tree.threadId() + " / " + tree.threadName(), out);
        row("parent id", tree.parentMessageId(), out);
        row("root id", tree.rootMessageId(), out);
        row("session", tree.sessionToken(), out);
        out.append("</table>\n<table class=\"tree\"><tr><th>kind</th><th>time (UTC)</th><th>type</th><th>name</th>")
            .append("<th>status</th><th>duration</th><th>data</th></tr>\n");
        final int n = tree.size();
        final int[] depth = new int[n];
        int i = n == 0 ? FlatTree.NONE : 0;
        while (i != FlatTree.NONE)
        {
            final int parent = tree.parent(i);
            depth[i] = parent == FlatTree.NONE ? 0 : depth[parent] + 1;
            message(tree, i, depth[i], out);
            i = next(tree, i);
        }
        out.append("</table>\n<p><a href=\"?raw=true\">raw frame</a> · <a href=\"?forceDownload=json\">json</a></p>")
            .append("</body></html>\n");
    }

    /** Pre-order successor: first child, else the next sibling of the nearest ancestor that has one. */
    private static int next(final FlatTree tree, final int i)
    {
        if (tree.isTransaction(i) && tree.firstChild(i) != FlatTree.NONE)
        {
            return tree.firstChild(i);
        }
        int j = i;
        while (j != FlatTree.NONE)
        {
            final int sibling = tree.nextSibling(j);
            if (sibling != FlatTree.NONE)
            {
                return sibling;
            }
            j = tree.parent(j);
        }
        return FlatTree.NONE;
    }

    private static void message(final FlatTree tree, final int i, final int depth, final StringBuilder out)
    {
        out.append("<tr><td style=\"padding-left:").append(Math.min(depth, MAX_INDENT)).append("em\">")
            .append(tree.kind(i).tag());
        if (depth > MAX_INDENT)
        {
            out.append(" (depth ").append(depth).append(')');
        }
        out.append("</td><td>").append(TIME.format(Instant.ofEpochMilli(tree.timestamp(i)))).append("</td><td>");
        escape(tree.type(i), out);
        out.append("</td><td>");
        escape(tree.name(i), out);
        out.append(tree.isSuccess(i) ? "</td><td>" : "</td><td class=\"fail\">");
        escape(tree.status(i), out);
        out.append("</td><td>");
        if (tree.isTransaction(i))
        {
            out.append(tree.durationMicros(i)).append(" µs");
        }
        out.append("</td><td class=\"data\">");
        escape(tree.data(i), out);
        out.append("</td></tr>\n");
    }

    private static void row(final String label, final String value, final StringBuilder out)
    {
        out.append("<tr><td>").append(label).append("</td><td>");
        escape(value, out);
        out.append("</td></tr>");
    }

    /**
     * Appends text with {@code & < > " '} replaced by entities, so it is safe in element content and in quoted
     * attributes.
     */
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
                case '"':
                    out.append("&quot;");
                    break;
                case '\'':
                    out.append("&#39;");
                    break;
                default:
                    out.append(c);
            }
        }
    }
}
