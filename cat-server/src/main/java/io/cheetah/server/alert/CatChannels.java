package io.cheetah.server.alert;

import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sends alerts the way CAT's {@code AlertManager} does, through the gateways a team already runs for CAT: the
 * {@link AlertPolicy} picks the channels of the alert's type, group and level, {@code suspendMinute} holds back a
 * repeat of an alert sent less than that many minutes ago (its key {@code level:type:group:metric}, as CAT keys it),
 * {@link AlertReceivers} names who hears of it on each channel, and {@link CatSenders} fills the gateway's request,
 * made on that channel's own {@link DeliveryLine}. Title and content are CAT's decorators' ({@code [CAT
 * Transaction告警] [项目: shop] [监控项: URL-/pay-count]}, the content with its link and time).
 * <p>
 * Recovery differs from CAT on purpose (docs/alerting.md): CAT announces a recovery {@code recoverMinute} after the
 * alert's last sending whether or not the rule still fires, so a rule that keeps firing under a {@code
 * suspendMinute} gets "recovered" notices between its alerts. Here a recovery is announced once the rule has been
 * quiet for {@code recoverMinute} minutes (1 when unset, the first quiet minute), on every channel of its policy
 * (CAT stops at the first channel that takes it), and never while it fires.
 * <p>
 * Called on the evaluator's thread ({@link #accept}, then {@link #minuteDone}); the requests go out on the lines'
 * threads.
 */
public final class CatChannels implements AlertSink, AutoCloseable
{
    private static final DateTimeFormatter LINK_HOUR = DateTimeFormatter.ofPattern("yyyyMMddHH");
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmm");

    private AlertPolicy policy;
    private AlertReceivers receivers;
    private CatSenders senders;
    private final long backoffMillis;
    private final String dashboard;
    private final ZoneId zone;
    private final Map<String, DeliveryLine<CatSenders.Request>> lines = new java.util.concurrent.ConcurrentHashMap<>();
    /** Key to the minute it was last sent, for suspendMinute. */
    private final Map<String, Long> sent = new HashMap<>();
    /** Key to the resolved alert whose recovery waits for recoverMinute. */
    private final Map<String, Alert> recovering = new LinkedHashMap<>();
    private final LongAdder messages = new LongAdder();
    private final LongAdder suspended = new LongAdder();
    private final LongAdder noReceiver = new LongAdder();
    private final LongAdder recoveries = new LongAdder();

    /**
     * @param policy        CAT's alert policy.
     * @param receivers     CAT's receivers and the domains' contacts.
     * @param senders       CAT's gateways; a channel without one is skipped.
     * @param dashboard     this server's dashboard base URL, for the links in the content.
     * @param zone          the zone of the times in titles and contents.
     * @param backoffMillis the first retry's delay.
     */
    public CatChannels(final AlertPolicy policy, final AlertReceivers receivers, final CatSenders senders,
        final String dashboard, final ZoneId zone, final long backoffMillis)
    {
        this.dashboard = dashboard.replaceAll("/+$", "");
        this.zone = zone;
        this.backoffMillis = backoffMillis;
        reconfigure(policy, receivers, senders);
    }

    /**
     * Takes a new policy, receivers and gateways from the next alert on; what is queued goes out as it was made.
     * Called on the evaluator's thread.
     *
     * @param policy    CAT's alert policy.
     * @param receivers CAT's receivers and the domains' contacts.
     * @param senders   CAT's gateways.
     */
    public void reconfigure(final AlertPolicy policy, final AlertReceivers receivers, final CatSenders senders)
    {
        this.policy = policy;
        this.receivers = receivers;
        this.senders = senders;
        for (final String channel : AlertPolicy.CHANNELS)
        {
            if (senders.sender(channel) != null && !lines.containsKey(channel))
            {
                lines.put(channel, new DeliveryLine<>("cat-" + channel, 1, backoffMillis, Duration.ofSeconds(2),
                    new GatewayRequests()));
            }
        }
    }

    /** CAT's HTTP senders, one request per item. */
    private static final class GatewayRequests implements DeliveryLine.Requests<CatSenders.Request>
    {
        private CatSenders.Request current;

        @Override
        public HttpRequest request(final List<CatSenders.Request> batch)
        {
            current = batch.get(0);
            return current.http();
        }

        @Override
        public boolean accepted(final HttpResponse<String> response)
        {
            return current.accepted(response.body());
        }
    }

    /**
     * @param kind an alert's kind.
     * @return CAT's alert type for it ({@code Transaction}, {@code Event}, {@code Exception}, {@code Heartbeat},
     * {@code Business}).
     */
    public static String catType(final String kind)
    {
        return kind.isEmpty() ? kind : kind.substring(0, 1).toUpperCase(Locale.ROOT) + kind.substring(1);
    }

    /**
     * @param a an alert.
     * @return CAT's key of it, {@code level:type:group:metric}, and the machine for a heartbeat alert (CAT leaves it
     * out, so one machine's alert would hold back another's).
     */
    static String key(final Alert a)
    {
        final String key = a.level() + ":" + catType(a.kind()) + ":" + a.domain() + ":" + a.catMetric();
        return a.ip().isEmpty() ? key : key + ":" + a.ip();
    }

    @Override
    public void accept(final Alert alert)
    {
        deliver(alert);
    }

    /**
     * Sends an alert on its policy's channels, as CAT's {@code AlertManager.send}: a repeat within the policy's
     * {@code suspendMinute} of the last sending is held back (whether or not the level names channels), a resolution
     * waits for its {@code recoverMinute}.
     *
     * @param alert a firing alert (every minute it fires) or a resolution.
     * @return false when the policy held the alert back (CAT then stores nothing either), else true.
     */
    public boolean deliver(final Alert alert)
    {
        final String key = key(alert);
        final String type = catType(alert.kind());
        final AlertPolicy.Level level = policy.level(type, alert.domain(), alert.level());
        if (alert.resolved())
        {
            if (level != null)
            {
                recovering.put(key, alert);
            }
            return true;
        }
        recovering.remove(key);
        if (level != null && level.suspendMinute() > 0)
        {
            final Long last = sent.get(key);
            if (last != null && (alert.minuteStart() - last) / 60_000L < level.suspendMinute())
            {
                suspended.increment();
                return false;
            }
            sent.put(key, alert.minuteStart());
        }
        if (level == null || level.channels().isEmpty())
        {
            return true;
        }
        final String title = title(alert, type);
        String content = content(alert, type);
        if (level.suspendMinute() > 0)
        {
            content = content + "<br/>[告警间隔时间]" + level.suspendMinute() + "分钟";
        }
        messages.increment();
        send(level, alert, type, title, content);
        return true;
    }

    /**
     * Announces the recoveries whose rule has been quiet for its {@code recoverMinute}; called after each minute's
     * alerts.
     *
     * @param minuteStart epoch ms of the minute just evaluated.
     */
    @Override
    public void minuteDone(final long minuteStart)
    {
        for (final Iterator<Map.Entry<String, Alert>> it = recovering.entrySet().iterator(); it.hasNext(); )
        {
            final Alert a = it.next().getValue();
            final String type = catType(a.kind());
            final AlertPolicy.Level level = policy.level(type, a.domain(), a.level());
            if (level == null)
            {
                it.remove();
                continue;
            }
            if (minuteStart >= a.minuteStart() + (level.recoverMinute() - 1) * 60_000L)
            {
                it.remove();
                sent.remove(key(a));
                recoveries.increment();
                send(level, a, type, "[告警恢复] [告警类型 " + title(type) + "][" + a.domain() + " " + a.catMetric() + "]",
                    "[告警已恢复][恢复时间]" + DATE.format(Instant.ofEpochMilli(minuteStart + 60_000L).atZone(zone)));
            }
        }
    }

    private void send(final AlertPolicy.Level level, final Alert alert, final String type, final String title,
        final String content)
    {
        // CAT stamps a mail with the minute it sends it: the minute after the one evaluated
        final String time = TIME.format(Instant.ofEpochMilli(alert.minuteStart() + 60_000L).atZone(zone));
        for (final String channel : level.channels())
        {
            final DeliveryLine<CatSenders.Request> line = lines.get(channel);
            final List<String> to = receivers.receivers(type, alert.domain(), channel);
            if (to.isEmpty())
            {
                noReceiver.increment();
                continue;
            }
            if (line == null)
            {
                continue;
            }
            final CatSenders.Message m = new CatSenders.Message(alert.domain(), title, type,
                CatSenders.split(channel, content), to);
            for (final CatSenders.Request r : senders.requests(channel, m, time))
            {
                line.offer(r);
            }
        }
    }

    /** CAT's {@code AlertType} titles. */
    private static String title(final String type)
    {
        return switch (type)
        {
            case "Exception" -> "异常告警";
            case "Heartbeat" -> "心跳告警";
            case "Business" -> "业务告警";
            default -> type + "告警";
        };
    }

    private String title(final Alert a, final String type)
    {
        return switch (type)
        {
            case "Exception" -> "[CAT异常告警] [项目: " + a.domain() + "]";
            case "Business" -> "[业务告警] [应用名 " + a.domain() + "][业务指标 " + a.catMetric() + "]";
            case "Heartbeat" -> "[心跳告警] [项目: " + a.domain() + "][ip: " + a.ip() + "][指标: " + a.catMetric() +
                "]";
            default -> "[CAT " + type + "告警] [项目: " + a.domain() + "] [监控项: " + a.catMetric() + "]";
        };
    }

    private String content(final Alert a, final String type)
    {
        final Instant at = Instant.ofEpochMilli(a.minuteStart());
        final String date = DATE.format(at.atZone(zone));
        final String hour = LINK_HOUR.format(at.atZone(zone));
        final String domain = enc(a.domain());
        return switch (type)
        {
            case "Exception" -> "[CAT异常告警] [项目: " + a.domain() + "] : " + a.summary() + "[时间: " + date +
                "] \n<a href='" + dashboard + "/cat/r/p?domain=" + domain + "&date=" + hour +
                "'>点击此处查看详情</a><br/>\n" + receivers.contactInfo(a.domain()) + "<br/>";
            case "Business" -> a.summary() + "[时间: " + date + "] \n<a href='" + dashboard + "/cat/r/business?domain=" +
                domain + "&date=" + hour + "'>点击此处查看详情</a><br/>" + receivers.contactInfo(a.domain());
            case "Heartbeat" -> a.summary() + "[时间: " + date + "] \n<a href='" + dashboard + "/cat/r/h?domain=" +
                domain + "&ip=" + enc(a.ip()) + "&date=" + hour + "'>点击此处查看详情</a><br/>";
            default -> "[CAT " + type + "告警: " + a.domain() + " " + a.type() + " " +
                (a.name().isEmpty() ? "All" : a.name()) + "] : " + a.summary() + "[时间: " + date + "] \n<a href='" +
                dashboard + ("Event".equals(type) ? "/cat/r/e" : "/cat/r/t") + "?domain=" + domain + "&type=" +
                enc(a.type()) + "&name=" + enc(a.name()) + "&date=" + hour + "'>点击此处查看详情</a><br/>";
        };
    }

    private static String enc(final String s)
    {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** @return the gateways' delivery lines, by channel. */
    public List<DeliveryLine<CatSenders.Request>> lines()
    {
        return new ArrayList<>(lines.values());
    }

    /** @return alerts sent to the policy's channels (suspended ones not included). */
    public long messages()
    {
        return messages.sum();
    }

    /** @return repeats held back by {@code suspendMinute}. */
    public long suspended()
    {
        return suspended.sum();
    }

    /** @return channel sendings skipped because nobody receives that type on that channel. */
    public long noReceiver()
    {
        return noReceiver.sum();
    }

    /** @return recoveries announced. */
    public long recoveries()
    {
        return recoveries.sum();
    }

    @Override
    public void close()
    {
        lines.values().forEach(DeliveryLine::close);
    }
}
