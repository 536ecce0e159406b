package io.cheetah.server.alert;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;

/**
 * Delivers alerts over HTTP from a bounded queue on a thread of its own, so that a receiver that hangs delays
 * nothing else: to Prometheus Alertmanager ({@code POST <url>/api/v2/alerts}, every minute a rule fires and once
 * when it resolves, labels {@code alertname, domain, type, name, monitor, severity}) or to a JSON webhook (once when
 * a rule starts firing and once when it resolves; an HMAC-SHA256 of the body in {@value #SIGNATURE} when a secret is
 * set), through a {@link DeliveryLine} (retries, counters).
 */
public final class HttpAlertSender implements AlertSink, AutoCloseable
{
    /** What the receiver is. */
    public enum Target
    {
        /** Prometheus Alertmanager's v2 API. */
        ALERTMANAGER,
        /** A generic JSON webhook (docs/alerting.md), signed in {@value #SIGNATURE} with a secret. */
        WEBHOOK,
        /** A Slack incoming webhook: {@code {"text": ...}} in Slack's mrkdwn. */
        SLACK,
        /** A DingTalk robot: a markdown message; with a secret, signed as DingTalk asks (timestamp and sign). */
        DINGTALK,
        /** A WeCom (WeChat Work) group robot: a markdown message. */
        WECOM;

        /**
         * @param format {@code alerting.webhook.format}: {@code json}, {@code slack}, {@code dingtalk} or
         *               {@code wecom}.
         * @return the target.
         * @throws IllegalArgumentException for another format.
         */
        public static Target webhook(final String format)
        {
            return switch (format)
            {
                case "json" -> WEBHOOK;
                case "slack" -> SLACK;
                case "dingtalk" -> DINGTALK;
                case "wecom" -> WECOM;
                default -> throw new IllegalArgumentException("must be json, slack, dingtalk or wecom, got " +
                    format);
            };
        }
    }

    /** Webhook header carrying {@code sha256=<hex HMAC of the body>}. */
    public static final String SIGNATURE = "X-Cheetah-Signature";
    /** Tries per request. */
    public static final int ATTEMPTS = DeliveryLine.ATTEMPTS;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("yyyyMMddHH").withZone(ZoneOffset.UTC);

    private final Target target;
    private final URI uri;
    private final String dashboard;
    private final byte[] secret;
    private final DeliveryLine<Alert> line;

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
        this.line = new DeliveryLine<>(target.name().toLowerCase(java.util.Locale.ROOT),
            target == Target.ALERTMANAGER ? 256 : 1, backoffMillis, Duration.ofSeconds(5), new DeliveryLine.Requests<>()
            {
                @Override
                public HttpRequest request(final List<Alert> batch)
                {
                    final String body = switch (target)
                    {
                        case ALERTMANAGER -> alertmanagerBody(batch);
                        case WEBHOOK -> webhookBody(batch.get(0));
                        default -> robotBody(batch.get(0));
                    };
                    final HttpRequest.Builder r = HttpRequest.newBuilder(target == Target.DINGTALK ? dingTalkUri() :
                        uri).timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body));
                    if (target == Target.WEBHOOK && HttpAlertSender.this.secret.length > 0)
                    {
                        r.header(SIGNATURE, "sha256=" + HexFormat.of().formatHex(hmac(body)));
                    }
                    return r.build();
                }

                @Override
                public boolean accepted(final HttpResponse<String> response)
                {
                    if (response.statusCode() / 100 != 2)
                    {
                        return false;
                    }
                    if (target != Target.DINGTALK && target != Target.WECOM)
                    {
                        return true;
                    }
                    try
                    {
                        // the robots answer 200 with {"errcode": 310000, ...} when they refuse a message
                        return JSON.readTree(response.body()).path("errcode").asInt(-1) == 0;
                    }
                    catch (final java.io.IOException e)
                    {
                        return false;
                    }
                }
            });
    }

    @Override
    public void accept(final Alert alert)
    {
        if (target != Target.ALERTMANAGER && !alert.isChange())
        {
            return; // a webhook hears of a rule when it starts and when it stops, not every minute between
        }
        line.offer(alert);
    }

    /** DingTalk's signed URL: {@code timestamp} and {@code sign}, a Base64 HMAC-SHA256 of "timestamp\nsecret". */
    private URI dingTalkUri()
    {
        if (secret.length == 0)
        {
            return uri;
        }
        final long timestamp = System.currentTimeMillis();
        final String sign = java.util.Base64.getEncoder().encodeToString(hmac(timestamp + "\n" +
            new String(secret, StandardCharsets.UTF_8)));
        return URI.create(uri + (uri.getRawQuery() == null ? "?" : "&") + "timestamp=" + timestamp + "&sign=" +
            enc(sign));
    }

    /** The message of a chat robot: what fired or resolved, the values, a link to the report. */
    String robotBody(final Alert a)
    {
        final String head = (a.resolved() ? "RESOLVED" : "FIRING " + a.level().toUpperCase(java.util.Locale.ROOT)) +
            ": cat " + a.kind() + " " + a.domain() + " " + a.catMetric() + (a.ip().isEmpty() ? "" : " " + a.ip());
        final ObjectNode o = JSON.createObjectNode();
        if (target == Target.SLACK)
        {
            o.put("text", "*" + slack(head) + "*\n" + slack(a.summary()) + "\n<" + link(a) + "|report>");
            return o.toString();
        }
        final String text = "### " + markdown(head) + "\n\n" + markdown(a.summary()) + "\n\n[report](" + link(a) +
            ")";
        o.put("msgtype", "markdown");
        final ObjectNode md = o.putObject("markdown");
        if (target == Target.DINGTALK)
        {
            md.put("title", head).put("text", text);
        }
        else
        {
            md.put("content", text);
        }
        return o.toString();
    }

    /** Slack's three control characters, so a name cannot become a mention or a link. */
    private static String slack(final String s)
    {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** Markdown's characters, so a name cannot become a link or markup. */
    private static String markdown(final String s)
    {
        return s.replaceAll("([\\\\`*_\\[\\]()<>#!|])", "\\\\$1");
    }

    private byte[] hmac(final String text)
    {
        try
        {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
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
            case Alert.HEARTBEAT -> "/cat/r/h";
            case BusinessRules.KIND -> "/cat/r/business";
            default -> "/cat/r/t";
        };
        return dashboard + page + "?domain=" + enc(a.domain()) + "&date=" +
            HOUR.format(Instant.ofEpochMilli(a.minuteStart())) +
            (a.ip().isEmpty() ? "&type=" + enc(a.type()) : "&ip=" + enc(a.ip()));
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
        if (!a.ip().isEmpty())
        {
            o.put("ip", a.ip());
        }
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
        return line.attempts();
    }

    /** @return alerts the receiver took. */
    public long delivered()
    {
        return line.delivered();
    }

    /** @return alerts given up on after every retry. */
    public long failed()
    {
        return line.failed();
    }

    /** @return alerts dropped because the queue was full (a receiver down for long). */
    public long dropped()
    {
        return line.dropped();
    }

    @Override
    public void close()
    {
        line.close();
    }
}
