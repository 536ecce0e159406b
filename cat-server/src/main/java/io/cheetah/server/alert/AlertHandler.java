package io.cheetah.server.alert;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cheetah.core.http.Reply;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The alert history over HTTP, mounted at {@value #CAT} and {@value #API}:
 * <ul>
 *   <li>CAT's {@code /cat/r/alert}, its parameters and JSON status answers: {@code op=insert} (domain, alertTime
 *       {@code yyyy-MM-dd HH:mm}, category, level, content, metric) answers {@code {"status":200}}, or
 *       {@code {"status":500, "errorMessage":"lack domain"}}; {@code op=view} (startTime, endTime, domain, alertType: a
 *       comma list of categories) answers the alerts grouped by minute ({@code MM-dd HH:mm}) as JSON;
 *       {@code op=alert} (channel, group, title, content, type, receivers: a comma list) sends a message through
 *       CAT's gateway of that channel ({@link CatSenders}) at once and answers {@code {"status":200}} when a request
 *       was taken, else CAT's {@code errorMessage} (lack receivers, retry, check your channel argument).</li>
 *   <li>{@code GET /api/v1/alerts?from=&to=&domain=&kind=&level=&limit=} (ISO-8601 instants, comma lists): the
 *       alerts, latest first, each with its {@code minute} ({@code yyyy-MM-dd HH:mm} in the zone of CAT's times) for
 *       the dashboard's Alerts page; a bad parameter gets a 400 naming it (docs/openapi.yaml).</li>
 * </ul>
 */
public final class AlertHandler extends Handler.Abstract
{
    /** CAT's path. */
    public static final String CAT = "/cat/r/alert";
    /** The JSON history API's path. */
    public static final String API = "/api/v1/alerts";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter CAT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("MM-dd HH:mm");
    private static final int MAX_LIMIT = 5_000;

    private static final DateTimeFormatter SEND_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmm");

    private final AlertHistory history;
    private final ZoneId zone;
    private final java.util.function.Supplier<CatSenders> senders;
    private final java.util.function.LongSupplier now;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * @param history the stored alerts.
     * @param zone    the zone of CAT's times ({@code storage.timeZone}).
     * @param senders CAT's gateways for {@code op=alert}, as configured now ({@link CatSenders#NONE}: every channel
     *                is refused).
     * @param now     the server's clock (the default end of a query, the time of an insert without one).
     */
    public AlertHandler(final AlertHistory history, final ZoneId zone,
        final java.util.function.Supplier<CatSenders> senders, final java.util.function.LongSupplier now)
    {
        this.now = now;
        this.history = history;
        this.zone = zone;
        this.senders = senders;
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback)
    {
        final String path = request.getHttpURI().getPath();
        final Fields q = Request.extractQueryParameters(request);
        try
        {
            if (API.equals(path))
            {
                api(q, response, callback);
            }
            else if (CAT.equals(path))
            {
                cat(q, response, callback);
            }
            else
            {
                return false;
            }
        }
        catch (final IllegalArgumentException e)
        {
            Reply.badRequest(response, callback, e.getMessage());
        }
        catch (final SQLException e)
        {
            Reply.error(response, callback, 503, "the alert history cannot be read: MySQL unavailable");
        }
        return true;
    }

    private void cat(final Fields q, final Response response, final Callback callback) throws SQLException
    {
        final String op = String.valueOf(q.getValue("op"));
        switch (op)
        {
            case "insert" -> {
                final String domain = q.getValue("domain");
                String answer = "{\"status\":200}";
                if (domain == null || domain.isEmpty())
                {
                    answer = "{\"status\":500, \"errorMessage\":\"lack domain\"}";
                }
                else
                {
                    final String time = q.getValue("alertTime");
                    final long at = time == null ? now.getAsLong() : catTime(time, "alertTime");
                    try
                    {
                        history.insert(domain, at, text(q, "category"), text(q, "level"), text(q, "content"),
                            text(q, "metric"), "inserted", now.getAsLong());
                    }
                    catch (final SQLException e)
                    {
                        answer = "{\"status\":500}";
                    }
                }
                Reply.text(response, callback, 200, Reply.JSON, answer);
            }
            case "alert" -> Reply.text(response, callback, 200, Reply.JSON, send(q));
            default -> {
                final long end = q.getValue("endTime") == null ? now.getAsLong() + 60_000 :
                    catTime(q.getValue("endTime"), "endTime");
                final long start = q.getValue("startTime") == null ? end - 3_600_000 :
                    catTime(q.getValue("startTime"), "startTime");
                final Map<String, List<ObjectNode>> byMinute = new LinkedHashMap<>();
                for (final AlertHistory.Stored a : history.query(start, end, blankToNull(q.getValue("domain")),
                    list(q.getValue("alertType")), Set.of(), MAX_LIMIT))
                {
                    byMinute.computeIfAbsent(MINUTE.format(Instant.ofEpochMilli(a.alertTime()).atZone(zone)),
                        k -> new java.util.ArrayList<>()).add(json(a));
                }
                final ObjectNode out = JSON.createObjectNode();
                final ObjectNode minutes = out.putObject("alertMinutes");
                byMinute.forEach((m, alerts) -> minutes.putArray(m).addAll(alerts));
                Reply.text(response, callback, 200, Reply.JSON, out.toString());
            }
        }
    }

    private void api(final Fields q, final Response response, final Callback callback) throws SQLException
    {
        final long to = q.getValue("to") == null ? now.getAsLong() + 60_000 : instant(q, "to");
        final long from = q.getValue("from") == null ? to - 24 * 3_600_000L : instant(q, "from");
        if (from >= to)
        {
            throw new IllegalArgumentException("from must be before to");
        }
        int limit = 500;
        if (q.getValue("limit") != null)
        {
            try
            {
                limit = Integer.parseInt(q.getValue("limit"));
            }
            catch (final NumberFormatException e)
            {
                limit = -1;
            }
            if (limit < 1 || limit > MAX_LIMIT)
            {
                throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT);
            }
        }
        final ArrayNode out = JSON.createArrayNode();
        for (final AlertHistory.Stored a : history.query(from, to, blankToNull(q.getValue("domain")),
            list(q.getValue("kind")), list(q.getValue("level")), limit))
        {
            // the minute in storage.timeZone as well: the dashboard's hours are the server's, not the browser's
            out.add(json(a).put("minute", CAT_TIME.format(Instant.ofEpochMilli(a.alertTime()).atZone(zone))));
        }
        Reply.text(response, callback, 200, Reply.JSON, out.toString());
    }

    private ObjectNode json(final AlertHistory.Stored a)
    {
        final ObjectNode o = JSON.createObjectNode();
        o.put("id", a.id()).put("domain", a.domain()).put("alertTime", Instant.ofEpochMilli(a.alertTime()).toString())
            .put("category", a.category()).put("level", a.level()).put("metric", a.metric())
            .put("status", a.status()).put("content", a.content());
        return o;
    }

    private long catTime(final String text, final String name)
    {
        try
        {
            return LocalDateTime.parse(text.trim(), CAT_TIME).atZone(zone).toInstant().toEpochMilli();
        }
        catch (final DateTimeParseException e)
        {
            throw new IllegalArgumentException(name + " must be yyyy-MM-dd HH:mm");
        }
    }

    private static long instant(final Fields q, final String name)
    {
        try
        {
            return Instant.parse(q.getValue(name)).toEpochMilli();
        }
        catch (final DateTimeParseException e)
        {
            throw new IllegalArgumentException(name + " must be an ISO-8601 instant, e.g. 2026-11-25T10:00:00Z");
        }
    }

    /** CAT's {@code op=alert}: one message through one channel's gateway, answered once the gateway has. */
    private String send(final Fields q)
    {
        final List<String> receivers = new java.util.ArrayList<>();
        for (final String r : text(q, "receivers").split(","))
        {
            if (!r.trim().isEmpty())
            {
                receivers.add(r.trim());
            }
        }
        if (receivers.isEmpty())
        {
            return "{\"status\":500, \"errorMessage\":\"lack receivers\"}";
        }
        final String channel = text(q, "channel");
        final CatSenders senders = this.senders.get();
        if (senders.sender(channel) == null)
        {
            return "{\"status\":500, \"errorMessage\":\"send failed, please check your channel argument\"}";
        }
        final CatSenders.Message m = new CatSenders.Message(text(q, "group"), text(q, "title"), text(q, "type"),
            text(q, "content"), receivers);
        boolean taken = false;
        final String time = SEND_TIME.format(Instant.ofEpochMilli(now.getAsLong()).atZone(zone));
        for (final CatSenders.Request r : senders.requests(channel, m, time))
        {
            try
            {
                taken |= r.accepted(http.send(r.http(), HttpResponse.BodyHandlers.ofString()).body());
            }
            catch (final java.io.IOException e)
            {
                // CAT logs and answers the failure
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return taken ? "{\"status\":200}" : "{\"status\":500, \"errorMessage\":\"send failed, please retry again\"}";
    }

    private static String text(final Fields q, final String name)
    {
        final String v = q.getValue(name);
        return v == null ? "" : v;
    }

    private static String blankToNull(final String s)
    {
        return s == null || s.isBlank() ? null : s;
    }

    private static Set<String> list(final String csv)
    {
        final Set<String> out = new TreeSet<>();
        if (csv != null)
        {
            for (final String s : csv.split(","))
            {
                if (!s.isBlank())
                {
                    out.add(s.trim());
                }
            }
        }
        if (out.size() > 32)
        {
            throw new IllegalArgumentException("at most 32 values in a list");
        }
        return out;
    }
}
