package io.cheetah.server.alert;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Delivers alerts over HTTP from a bounded queue on a thread of its own, so that a receiver that hangs delays
 * nothing else: to Prometheus Alertmanager ({@code POST <url>/api/v2/alerts}, every minute a rule fires and once
 * when it resolves, labels {@code alertname, domain, type, name, monitor, severity}) or to a JSON webhook (once when
 * a rule starts firing and once when it resolves; an HMAC-SHA256 of the body in {@value #SIGNATURE} when a secret is
 * set). Each request is tried {@value #ATTEMPTS} times with a doubling back-off; every attempt, failure and alert
 * dropped at a full queue is counted for {@code /metrics}.
 */
public final class HttpAlertSender implements AlertSink, AutoCloseable
{
    /** What the receiver is. */
    public enum Target
    {
        /** Prometheus Alertmanager's v2 API. */
        ALERTMANAGER,
        /** A generic JSON webhook. */
        WEBHOOK
    }

    /** Webhook header carrying {@code sha256=<hex HMAC of the body>}. */
    public static final String SIGNATURE = "X-Cheetah-Signature";
    /** Tries per request. */
    public static final int ATTEMPTS = 3;

    private static final Logger LOG = LoggerFactory.getLogger(HttpAlertSender.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("yyyyMMddHH").withZone(ZoneOffset.UTC);

    private final Target target;
    private final URI uri;
    private final String dashboard;
    private final byte[] secret;
    private final long backoffMillis;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final BlockingQueue<Alert> queue = new ArrayBlockingQueue<>(1024);
    private final Thread thread;
    private final LongAdder attempts = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private volatile boolean running = true;

    /**
     * @param target        what the receiver is.
     * @param url           Alertmanager's base URL, or the webhook's URL.
     * @param dashboard     this server's dashboard base URL, for links back to the report minute.
     * @param secret        the webhook's HMAC secret (empty: no signature).
     * @param backoffMillis the first retry's delay (doubled for the next).
     */
    public HttpAlertSender(final Target target, final String url, final String dashboard, final String secret,
        final long backoffMillis)
    {
        this.target = target;
        final String base = url.replaceAll("/+$", "");
        this.uri = URI.create(target == Target.ALERTMANAGER ? base + "/api/v2/alerts" : url);
        this.dashboard = dashboard.replaceAll("/+$", "");
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
        this.backoffMillis = backoffMillis;
        this.thread = new Thread(this::run, "cheetah-alerts-" + target.name().toLowerCase());
        this.thread.setDaemon(true);
        this.thread.start();
    }

    @Override
    public void accept(final Alert alert)
    {
        if (target == Target.WEBHOOK && !alert.isChange())
        {
            return; // a webhook hears of a rule when it starts and when it stops, not every minute between
        }
        if (!queue.offer(alert))
        {
            dropped.increment();
        }
    }

    private void run()
    {
        final List<Alert> batch = new ArrayList<>();
        while (running)
        {
            try
            {
                final Alert first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null)
                {
                    continue;
                }
                batch.clear();
                batch.add(first);
                if (target == Target.ALERTMANAGER)
                {
                    queue.drainTo(batch, 255);
                    post(alertmanagerBody(batch), batch.size());
                }
                else
                {
                    post(webhookBody(first), 1);
                }
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void post(final String body, final int alerts) throws InterruptedException
    {
        long delay = backoffMillis;
        String problem = "";
        for (int attempt = 1; attempt <= ATTEMPTS && running; attempt++)
        {
            attempts.increment();
            try
            {
                final HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
                if (target == Target.WEBHOOK && secret.length > 0)
                {
                    request.header(SIGNATURE, "sha256=" + hmac(body));
                }
                final HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() / 100 == 2)
                {
                    delivered.add(alerts);
                    return;
                }
                problem = "HTTP " + r.statusCode();
            }
            catch (final java.io.IOException e)
            {
                problem = e.toString();
            }
            if (attempt < ATTEMPTS)
            {
                Thread.sleep(delay);
                delay *= 2;
            }
        }
        failed.add(alerts);
        LOG.warn("{} alert(s) not delivered to {} after {} attempts: {}", alerts, uri, ATTEMPTS, problem);
    }

    private String hmac(final String body)
    {
        try
        {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        }
        catch (final java.security.GeneralSecurityException e)
        {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** @return a link to the report page of the alert's domain and hour. */
    String link(final Alert a)
    {
        final String page = switch (a.kind())
        {
            case "event" -> "/cat/r/e";
            case AlertEvaluator.EXCEPTION -> "/cat/r/p";
            default -> "/cat/r/t";
        };
        return dashboard + page + "?domain=" + enc(a.domain()) + "&date=" +
            HOUR.format(Instant.ofEpochMilli(a.minuteStart())) + "&type=" + enc(a.type());
    }

    private String alertmanagerBody(final List<Alert> alerts)
    {
        final ArrayNode array = JSON.createArrayNode();
        for (final Alert a : alerts)
        {
            final ObjectNode o = array.addObject();
            final ObjectNode labels = o.putObject("labels");
            a.labels().forEach(labels::put);
            o.putObject("annotations").put("summary", a.summary());
            o.put("startsAt", Instant.ofEpochMilli(a.firstFired()).toString());
            // firing: expires unless renewed next minute; resolved: ended with the minute that showed it
            o.put("endsAt", Instant.ofEpochMilli(a.minuteStart() + (a.resolved() ? 60_000L : 300_000L)).toString());
            o.put("generatorURL", link(a));
        }
        return array.toString();
    }

    private String webhookBody(final Alert a)
    {
        final ObjectNode o = JSON.createObjectNode();
        o.put("status", a.resolved() ? "resolved" : "firing");
        o.put("kind", a.kind()).put("rule", a.ruleId()).put("domain", a.domain()).put("type", a.type())
            .put("name", a.name()).put("monitor", a.monitor()).put("level", a.level());
        o.put("minute", Instant.ofEpochMilli(a.minuteStart()).toString());
        o.put("since", Instant.ofEpochMilli(a.firstFired()).toString());
        o.put("summary", a.summary()).put("link", link(a));
        return o.toString();
    }

    private static String enc(final String s)
    {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** @return what the receiver is. */
    public Target target()
    {
        return target;
    }

    /** @return requests tried (retries included). */
    public long attempts()
    {
        return attempts.sum();
    }

    /** @return alerts the receiver took. */
    public long delivered()
    {
        return delivered.sum();
    }

    /** @return alerts given up on after every retry. */
    public long failed()
    {
        return failed.sum();
    }

    /** @return alerts dropped because the queue was full (a receiver down for long). */
    public long dropped()
    {
        return dropped.sum();
    }

    @Override
    public void close()
    {
        running = false;
        thread.interrupt();
        try
        {
            thread.join(2000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
