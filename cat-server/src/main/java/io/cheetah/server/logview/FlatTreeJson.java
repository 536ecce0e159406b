package io.cheetah.server.logview;

import io.cheetah.message.FlatTree;

/**
 * The logview's own {@link TreeJson}: walks the tree iteratively (firstChild / nextSibling / parent, no stack), so
 * trees of any depth are written, and escapes every string per RFC 8259. Stateless and thread-safe.
 */
public final class FlatTreeJson implements TreeJson
{
    /** The shared instance. */
    public static final FlatTreeJson INSTANCE = new FlatTreeJson();

    private static final String[] KINDS = {"transaction", "event", "heartbeat", "metric", "trace"};

    @Override
    public void write(final FlatTree tree, final StringBuilder out)
    {
        out.append("{\"codec\": ");
        string(codecName(tree.codec()), out);
        out.append(", \"header\": {");
        field("domain", tree.domain(), out).append(", ");
        field("hostname", tree.hostname(), out).append(", ");
        field("ip", tree.ip(), out).append(", ");
        field("threadGroupName", tree.threadGroupName(), out).append(", ");
        field("threadId", tree.threadId(), out).append(", ");
        field("threadName", tree.threadName(), out).append(", ");
        field("messageId", tree.messageId(), out).append(", ");
        field("parentMessageId", tree.parentMessageId(), out).append(", ");
        field("rootMessageId", tree.rootMessageId(), out).append(", ");
        field("sessionToken", tree.sessionToken(), out).append('}');
        if (tree.size() > 0)
        {
            out.append(", \"message\": ");
            messages(tree, out);
        }
        out.append('}');
    }

    private static void messages(final FlatTree tree, final StringBuilder out)
    {
        int i = 0;
        while (true)
        {
            open(tree, i, out);
            final int child = tree.isTransaction(i) ? tree.firstChild(i) : FlatTree.NONE;
            if (child != FlatTree.NONE)
            {
                i = child;
                continue;
            }
            if (tree.isTransaction(i))
            {
                out.append("]");
            }
            out.append('}');
            while (true)
            {
                if (i == 0)
                {
                    return;
                }
                final int sibling = tree.nextSibling(i);
                if (sibling != FlatTree.NONE)
                {
                    out.append(", ");
                    i = sibling;
                    break;
                }
                i = tree.parent(i);
                out.append("]}");
            }
        }
    }

    private static void open(final FlatTree tree, final int i, final StringBuilder out)
    {
        out.append("{\"kind\": \"").append(KINDS[tree.kind(i).ordinal()]).append("\", ");
        field("type", tree.type(i), out).append(", ");
        field("name", tree.name(i), out).append(", ");
        field("status", tree.status(i), out).append(", ");
        field("data", tree.data(i), out).append(", ");
        out.append("\"timestamp\": ").append(tree.timestamp(i));
        if (tree.isTransaction(i))
        {
            out.append(", \"durationMicros\": ").append(tree.durationMicros(i)).append(", \"children\": [");
        }
    }

    private static String codecName(final byte codec)
    {
        switch (codec)
        {
            case FlatTree.CODEC_NT1:
                return "NT1";
            case FlatTree.CODEC_PT1:
                return "PT1";
            case FlatTree.CODEC_NM1:
                return "NM1";
            default:
                return "";
        }
    }

    private static StringBuilder field(final String name, final String value, final StringBuilder out)
    {
        out.append('"').append(name).append("\": ");
        string(value, out);
        return out;
    }

    static void string(final String s, final StringBuilder out)
    {
        out.append('"');
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                default:
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029)
                    {
                        // also escapes markup, so the JSON is safe even if a browser sniffs it as HTML
                        out.append("\\u").append(Character.forDigit(c >> 12, 16))
                            .append(Character.forDigit((c >> 8) & 15, 16)).append(Character.forDigit((c >> 4) & 15, 16))
                            .append(Character.forDigit(c & 15, 16));
                    }
                    else
                    {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}
