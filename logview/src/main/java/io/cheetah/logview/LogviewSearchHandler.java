package io.cheetah.logview;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.logview.search.SearchCursor;
import io.cheetah.core.http.Reply;
import io.cheetah.logview.search.SearchCounters;
import io.cheetah.logview.search.SearchHit;
import io.cheetah.logview.search.SearchPage;
import io.cheetah.logview.search.SearchParameters;
import io.cheetah.logview.search.SearchQuery;
import io.cheetah.logview.search.TreeSearch;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * {@code GET /api/v1/logview/search?domain=&from=&to=&type=&name=&status=&minMs=&maxMs=&ip=&host=&limit=&cursor=}:
 * lists the stored trees that match, newest first, a page at a time (docs/openapi.yaml). A bad parameter gets a 400
 * naming it. Mounted by the server next to the logview's look-up; answers from a {@link TreeSearch} (this server's
 * store, or the cluster's merge).
 * <pre>
 * {"trees":[{"messageId","domain","ip","host","time","timestamp","type","name","status","durationMs","cursor"}],
 *  "next": "&lt;cursor&gt;" | null, "partial": false, "scannedTo": null[, "missingMembers": [...]]}
 * </pre>
 */
public final class LogviewSearchHandler extends Handler.Abstract
{
    /** Where the handler is mounted. */
    public static final String PATH = "/api/v1/logview/search";

    private static final JsonFactory JSON = new JsonFactory();

    private final TreeSearch search;
    private final SearchCounters counters;
    private final ZoneId zone;
    private final LongSupplier clock;

    /**
     * @param search   what answers.
     * @param counters where refused searches are counted.
     * @param zone     the zone of local date-times in {@code from} and {@code to} ({@code storage.timeZone}).
     * @param clock    the server's clock (the default range is its current hour).
     */
    public LogviewSearchHandler(final TreeSearch search, final SearchCounters counters, final ZoneId zone,
        final LongSupplier clock)
    {
        this.search = search;
        this.counters = counters;
        this.zone = zone;
        this.clock = clock;
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback)
    {
        final String path = request.getHttpURI().getDecodedPath();
        if (!PATH.equals(path) && !(PATH + "/").equals(path))
        {
            return false;
        }
        if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod()))
        {
            Reply.error(response, callback, 405, "only GET is supported");
            return true;
        }
        final Fields fields = Request.extractQueryParameters(request);
        final SearchQuery query;
        try
        {
            for (final String name : fields.getNames())
            {
                if (fields.getValues(name).size() > 1)
                {
                    throw new IllegalArgumentException(name + ": given more than once");
                }
            }
            query = SearchParameters.parse(fields::getValue, fields.getNames(), clock.getAsLong(), zone);
        }
        catch (final IllegalArgumentException e)
        {
            counters.countBadSearch();
            Reply.badRequest(response, callback, e.getMessage());
            return true;
        }
        final SearchPage page = search.search(query);
        Reply.bytes(response, callback, 200, Reply.JSON, json(page));
        return true;
    }

    /**
     * Reads an answer of {@link #json} back (a cluster member's, asked by another).
     *
     * @param body the JSON.
     * @return the page (its work counts are not carried).
     * @throws IOException when the body is not such an answer.
     */
    public static SearchPage read(final byte[] body) throws IOException
    {
        final JsonNode root = new ObjectMapper(JSON).readTree(body);
        final JsonNode trees = root == null ? null : root.get("trees");
        if (trees == null || !trees.isArray())
        {
            throw new IOException("not a search answer");
        }
        final List<SearchHit> hits = new ArrayList<>(trees.size());
        try
        {
            for (final JsonNode t : trees)
            {
                final SearchCursor key = SearchCursor.decode(t.get("cursor").asText());
                final JsonNode duration = t.get("durationMs");
                hits.add(new SearchHit(t.get("messageId").asText(), t.get("domain").asText(), t.get("ip").asText(),
                    t.get("host").asText(), key.time(), t.get("type").asText(), t.get("name").asText(),
                    t.get("status").asText(), duration == null || duration.isNull() ? -1 :
                        Math.round(duration.asDouble() * 1000), key.hash()));
            }
            final JsonNode next = root.get("next");
            final boolean partial = root.path("partial").asBoolean(false);
            final JsonNode scannedTo = root.get("scannedTo");
            return new SearchPage(hits, next == null || next.isNull() ? null : SearchCursor.decode(next.asText()),
                partial, partial && scannedTo != null && !scannedTo.isNull() ?
                    Instant.parse(scannedTo.asText()).toEpochMilli() : -1, 0, 0);
        }
        catch (final RuntimeException e)
        {
            throw new IOException("not a search answer: " + e.getMessage(), e);
        }
    }

    /**
     * @param page a page of results.
     * @return its JSON answer.
     */
    public static byte[] json(final SearchPage page)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + page.hits().size() * 256);
        try (JsonGenerator g = JSON.createGenerator(bytes, JsonEncoding.UTF8))
        {
            g.writeStartObject();
            g.writeArrayFieldStart("trees");
            for (final SearchHit h : page.hits())
            {
                g.writeStartObject();
                g.writeStringField("messageId", h.messageId());
                g.writeStringField("domain", h.domain());
                g.writeStringField("ip", h.ip());
                g.writeStringField("host", h.host());
                g.writeStringField("time", Instant.ofEpochMilli(h.time()).toString());
                g.writeNumberField("timestamp", h.time());
                g.writeStringField("type", h.type());
                g.writeStringField("name", h.name());
                g.writeStringField("status", h.status());
                if (h.durationMicros() >= 0)
                {
                    g.writeNumberField("durationMs", h.durationMicros() / 1000.0);
                }
                else
                {
                    g.writeNullField("durationMs");
                }
                g.writeStringField("cursor", h.cursor().encode());
                g.writeEndObject();
            }
            g.writeEndArray();
            if (page.next() == null)
            {
                g.writeNullField("next");
            }
            else
            {
                g.writeStringField("next", page.next().encode());
            }
            g.writeBooleanField("partial", page.partial());
            if (page.partial())
            {
                g.writeStringField("scannedTo", Instant.ofEpochMilli(page.scannedTo()).toString());
            }
            else
            {
                g.writeNullField("scannedTo");
            }
            if (!page.missing().isEmpty())
            {
                g.writeArrayFieldStart("missingMembers");
                for (final String m : page.missing())
                {
                    g.writeString(m);
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e); // in-memory output
        }
        return bytes.toByteArray();
    }
}
