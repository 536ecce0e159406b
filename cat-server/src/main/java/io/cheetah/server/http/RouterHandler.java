package io.cheetah.server.http;

import io.cheetah.report.XmlWriter;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * {@code GET /cat/s/router}: tells CAT clients which TCP servers to send to and how to sample, in the form each
 * client parses (docs/protocol.md §3.2, §10.4): {@code op=xml} → {@code <property-config>} XML (Java 3.x, cat-go);
 * {@code op=json} → {@code {"kvs":{...}}} with string values (ccat, Python, legacy Java), or Java
 * {@code Map.toString()} text when a {@code token} parameter is present (4.0-RC1); anything else → the plain
 * {@code ip:port;} list (C#). Never compressed. On a single server the answer is the same for every client and
 * computed once; in a cluster {@link #routeBy} makes it depend on the client's {@code domain} parameter (its
 * rendezvous members), computed per request (clients ask once a minute).
 */
public final class RouterHandler extends Handler.Abstract
{
    private final Answers fixed;
    private final double sample;
    private final boolean multiInstances;
    private volatile Function<String, List<String>> routes;
    private final LongAdder[] requests = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};

    /** Answer forms, in the order of {@link #requests(int)}: xml, json, map (json with token), api. */
    public static final String[] FORMS = {"xml", "json", "map", "api"};

    /**
     * @param routers TCP endpoints {@code host:port} in priority order (this server first).
     * @param sample  sampling ratio.
     */
    public RouterHandler(final List<String> routers, final double sample)
    {
        this(routers, sample, false);
    }

    /**
     * @param routers        TCP endpoints {@code host:port} in priority order (this server first).
     * @param sample         sampling ratio.
     * @param multiInstances whether to tell clients to put their process id in message ids (CAT's
     *                       {@code multiInstances} property; only sent when true, as CAT's routers do).
     */
    public RouterHandler(final List<String> routers, final double sample, final boolean multiInstances)
    {
        this.sample = sample;
        this.multiInstances = multiInstances;
        this.fixed = Answers.of(routers, sample, multiInstances);
    }

    /** Every form of one answer, computed together. */
    private record Answers(Map<String, String> kvs, String xml, String json, String mapText, String api)
    {
        static Answers of(final List<String> routers, final double sample, final boolean multiInstances)
        {
            final StringBuilder list = new StringBuilder();
            for (final String r : routers)
            {
                list.append(r).append(';');
            }
            final Map<String, String> m = new LinkedHashMap<>();
            m.put("routers", list.toString());
            m.put("sample", Double.toString(sample));
            m.put("block", "false");
            if (multiInstances)
            {
                m.put("multiInstances", "true");
            }
            return new Answers(java.util.Collections.unmodifiableMap(m), RouterHandler.xml(m), RouterHandler.json(m),
                m.toString(), list.toString());
        }

        String answer(final String op, final boolean token)
        {
            if ("xml".equals(op))
            {
                return xml;
            }
            if ("json".equals(op))
            {
                return token ? mapText : json;
            }
            return api;
        }
    }

    private static String json(final Map<String, String> m)
    {
        final StringBuilder sb = new StringBuilder("{\"kvs\":{");
        boolean first = true;
        for (final Map.Entry<String, String> e : m.entrySet())
        {
            if (!first)
            {
                sb.append(',');
            }
            first = false;
            quote(sb, e.getKey());
            sb.append(':');
            quote(sb, e.getValue());
        }
        return sb.append("}}").toString();
    }

    private static void quote(final StringBuilder sb, final String s)
    {
        sb.append('"');
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            if (c == '"' || c == '\\')
            {
                sb.append('\\').append(c);
            }
            else if (c < 0x20)
            {
                sb.append(String.format("\\u%04x", (int)c));
            }
            else
            {
                sb.append(c);
            }
        }
        sb.append('"');
    }

    private static String xml(final Map<String, String> m)
    {
        final StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
        try
        {
            final XmlWriter w = new XmlWriter(sb);
            w.start("property-config");
            for (final Map.Entry<String, String> e : m.entrySet())
            {
                w.start("property").attribute("id", e.getKey()).attribute("value", e.getValue()).end("property");
            }
            w.end("property-config");
        }
        catch (final IOException e)
        {
            throw new IllegalStateException(e);
        }
        return sb.append('\n').toString();
    }

    /**
     * @return the key/value pairs every form carries.
     */
    public Map<String, String> kvs()
    {
        return fixed.kvs();
    }

    /**
     * @param form index into {@link #FORMS}.
     * @return requests answered in that form.
     */
    public long requests(final int form)
    {
        return requests[form].sum();
    }

    /**
     * @param op    the {@code op} parameter (may be null).
     * @param token whether a {@code token} parameter is present.
     * @return the body for that request.
     */
    public String answer(final String op, final boolean token)
    {
        return fixed.answer(op, token);
    }

    /**
     * Answers each client with endpoints chosen for its domain from now on (cluster mode); the list given at
     * construction stays the answer for a request without a domain.
     *
     * @param byDomain domain to {@code host:port} endpoints in priority order (never empty).
     */
    public void routeBy(final Function<String, List<String>> byDomain)
    {
        this.routes = byDomain;
    }

    /**
     * @param op     {@code xml}, {@code json} or anything else (the plain list).
     * @param token  whether a {@code token} parameter came with {@code op=json} (Map text).
     * @param domain the client's domain, or null.
     * @return the body for that client.
     */
    public String answer(final String op, final boolean token, final String domain)
    {
        final Function<String, List<String>> byDomain = routes;
        if (byDomain == null || domain == null || domain.isEmpty())
        {
            return answer(op, token);
        }
        return Answers.of(byDomain.apply(domain), sample, multiInstances).answer(op, token);
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback)
    {
        final Fields params = Request.extractQueryParameters(request);
        final String op = params.getValue("op");
        final boolean token = params.get("token") != null;
        final String body = answer(op, token, params.getValue("domain"));
        requests["xml".equals(op) ? 0 : "json".equals(op) ? (token ? 2 : 1) : 3].increment();
        final String type = "xml".equals(op) ? "text/xml; charset=utf-8" :
            "json".equals(op) && params.get("token") == null ? "application/json; charset=utf-8" :
                "text/plain; charset=utf-8";
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        Content.Sink.write(response, true, body, callback);
        return true;
    }
}
