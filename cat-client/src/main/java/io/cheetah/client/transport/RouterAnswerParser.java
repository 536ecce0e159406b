package io.cheetah.client.transport;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the router's JSON answer ({@code {"kvs":{"routers":"…","sample":"1.0","block":"false"}}}) into the
 * string values of its {@code kvs} object. Called by {@link RouterClient}; a strict little JSON reader so the
 * client SDK needs no JSON library for three fields (docs/protocol.md, "Router").
 *
 * <p>Scalars under {@code kvs} (strings, numbers, booleans) are returned as their text; nested objects and arrays
 * are checked for syntax and skipped; anything outside {@code kvs} is ignored.
 */
final class RouterAnswerParser
{
    /** Nesting deeper than this is not a router answer. */
    private static final int MAX_DEPTH = 32;

    private final String text;
    private int pos;

    private RouterAnswerParser(final String text)
    {
        this.text = text;
    }

    /**
     * @param body the answer's text.
     * @return the {@code kvs} object's scalar members as text; empty when there is no {@code kvs} object.
     * @throws IOException describing the first syntax error.
     */
    static Map<String, String> kvs(final String body) throws IOException
    {
        final RouterAnswerParser p = new RouterAnswerParser(body);
        final Map<String, String> kvs = new HashMap<>();
        p.skipSpace();
        p.expect('{');
        p.skipSpace();
        if (p.peek() != '}')
        {
            do
            {
                p.skipSpace();
                final String key = p.string();
                p.skipSpace();
                p.expect(':');
                p.skipSpace();
                if ("kvs".equals(key) && p.peek() == '{')
                {
                    p.object(kvs);
                }
                else
                {
                    p.value(1);
                }
                p.skipSpace();
            }
            while (p.consume(','));
        }
        p.expect('}');
        p.skipSpace();
        if (p.pos != p.text.length())
        {
            throw p.error("trailing characters");
        }
        return kvs;
    }

    private void object(final Map<String, String> into) throws IOException
    {
        expect('{');
        skipSpace();
        if (consume('}'))
        {
            return;
        }
        do
        {
            skipSpace();
            final String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            final String v = value(2);
            if (v != null)
            {
                into.put(key, v);
            }
            skipSpace();
        }
        while (consume(','));
        expect('}');
    }

    /** @return the scalar's text, or null for null, objects and arrays. */
    private String value(final int depth) throws IOException
    {
        if (depth > MAX_DEPTH)
        {
            throw error("nested too deep");
        }
        final char c = peek();
        switch (c)
        {
            case '"':
                return string();
            case '{':
                expect('{');
                skipSpace();
                if (!consume('}'))
                {
                    do
                    {
                        skipSpace();
                        string();
                        skipSpace();
                        expect(':');
                        skipSpace();
                        value(depth + 1);
                        skipSpace();
                    }
                    while (consume(','));
                    expect('}');
                }
                return null;
            case '[':
                expect('[');
                skipSpace();
                if (!consume(']'))
                {
                    do
                    {
                        skipSpace();
                        value(depth + 1);
                        skipSpace();
                    }
                    while (consume(','));
                    expect(']');
                }
                return null;
            default:
                return literal();
        }
    }

    private String literal() throws IOException
    {
        final int start = pos;
        while (pos < text.length() && "+-.0123456789eEtrufalsn".indexOf(text.charAt(pos)) >= 0)
        {
            pos++;
        }
        final String lit = text.substring(start, pos);
        if ("null".equals(lit))
        {
            return null;
        }
        if ("true".equals(lit) || "false".equals(lit))
        {
            return lit;
        }
        if (lit.isEmpty() || !lit.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?"))
        {
            pos = start;
            throw error("unexpected value");
        }
        return lit;
    }

    private String string() throws IOException
    {
        expect('"');
        final StringBuilder sb = new StringBuilder();
        while (true)
        {
            if (pos >= text.length())
            {
                throw error("unterminated string");
            }
            final char c = text.charAt(pos++);
            if (c == '"')
            {
                return sb.toString();
            }
            if (c < 0x20)
            {
                throw error("control character in string");
            }
            if (c != '\\')
            {
                sb.append(c);
                continue;
            }
            if (pos >= text.length())
            {
                throw error("unterminated escape");
            }
            final char e = text.charAt(pos++);
            switch (e)
            {
                case '"': case '\\': case '/': sb.append(e); break;
                case 'b': sb.append('\b'); break;
                case 'f': sb.append('\f'); break;
                case 'n': sb.append('\n'); break;
                case 'r': sb.append('\r'); break;
                case 't': sb.append('\t'); break;
                case 'u':
                    if (pos + 4 > text.length())
                    {
                        throw error("short \\u escape");
                    }
                    try
                    {
                        sb.append((char)Integer.parseInt(text.substring(pos, pos + 4), 16));
                    }
                    catch (final NumberFormatException ex)
                    {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                    break;
                default:
                    throw error("bad escape \\" + e);
            }
        }
    }

    private char peek() throws IOException
    {
        if (pos >= text.length())
        {
            throw error("unexpected end");
        }
        return text.charAt(pos);
    }

    private boolean consume(final char c)
    {
        if (pos < text.length() && text.charAt(pos) == c)
        {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(final char c) throws IOException
    {
        if (!consume(c))
        {
            throw error("expected '" + c + "'");
        }
    }

    private void skipSpace()
    {
        while (pos < text.length())
        {
            final char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            {
                return;
            }
            pos++;
        }
    }

    private IOException error(final String what)
    {
        return new IOException(what + " at offset " + pos);
    }
}
