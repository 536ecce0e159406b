package io.cheetah.server.alert;

import org.w3c.dom.Element;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * CAT's HTTP gateways ({@code sender-config}, {@code senderConfig.xml}), reproduced so the gateways a team already
 * runs for CAT keep working: per channel ({@code mail}, {@code sms}, {@code weixin}) a URL, {@code get} or
 * {@code post}, the {@code par} templates joined with {@code &} and filled as CAT's {@code MailSender},
 * {@code SmsSender} and {@code WeixinSender} fill them (the same placeholders, the same characters dropped, the same
 * URL encoding), one request per receiver or one for all ({@code batchSend}), and success when the answer's body
 * contains {@code successCode}. Turns a message into the requests to make; {@link CatChannels} makes them.
 * <pre>
 *  sender id=mail url=http://gw/ type=post successCode=200 batchSend=true ─ par id="to=${receiver}" ...
 * </pre>
 */
public final class CatSenders
{
    /** No gateway at all. */
    public static final CatSenders NONE = new CatSenders(Map.of());

    private static final Pattern LINK = Pattern.compile("<a href.*(?=</a>)</a>");
    private static final Pattern LINK_OR_NEWLINE = Pattern.compile("(<a href.*(?=</a>)</a>)|(\n)");
    private static final Pattern DIV = Pattern.compile("<div.*(?=</div>)</div>", Pattern.DOTALL);
    private static final Pattern TABLE = Pattern.compile("<table.*(?=</table>)</table>", Pattern.DOTALL);

    /**
     * One gateway.
     *
     * @param id          the channel it serves.
     * @param url         where requests go.
     * @param post        POST a form body (else GET with the parameters in the query).
     * @param successCode what the answer's body holds when the gateway took the message.
     * @param batchSend   one request for every receiver (comma-separated) instead of one each.
     * @param pars        the {@code par} templates, joined with {@code &}.
     */
    public record Sender(String id, String url, boolean post, String successCode, boolean batchSend, String pars)
    {
    }

    /**
     * What CAT's {@code SendMessageEntity} holds.
     *
     * @param group     the alert's group (its domain).
     * @param title     the title.
     * @param type      CAT's alert type, e.g. {@code Transaction}.
     * @param content   the content, already through the channel's {@link #split}.
     * @param receivers who it goes to.
     */
    public record Message(String group, String title, String type, String content, List<String> receivers)
    {
    }

    /**
     * One HTTP request to a gateway.
     *
     * @param sender the gateway.
     * @param uri    the URL (with the query for GET).
     * @param body   the form body for POST, else null.
     */
    public record Request(Sender sender, String uri, String body)
    {
        /** @return the HTTP request CAT's {@code AbstractSender} makes: a GET, or a form POST; 3 s to answer. */
        public HttpRequest http()
        {
            final HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(3));
            if (body != null)
            {
                b.header("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            }
            return b.build();
        }

        /**
         * @param answer the gateway's answer body.
         * @return true when it holds the sender's success code, CAT's only test of a sending.
         */
        public boolean accepted(final String answer)
        {
            return answer != null && answer.contains(sender.successCode());
        }
    }

    private final Map<String, Sender> senders;

    private CatSenders(final Map<String, Sender> senders)
    {
        this.senders = senders;
    }

    /**
     * @param xml a {@code sender-config} document.
     * @return its gateways.
     * @throws IllegalArgumentException naming the sender that cannot be used.
     */
    public static CatSenders parse(final String xml)
    {
        final Element root = CatXml.root(xml, "sender-config");
        final Map<String, Sender> senders = new LinkedHashMap<>();
        for (final Element s : CatXml.children(root, "sender"))
        {
            final String id = s.getAttribute("id");
            final String url = s.getAttribute("url").trim();
            final String type = s.getAttribute("type").trim();
            if (!"mail".equals(id) && !"sms".equals(id) && !"weixin".equals(id))
            {
                throw new IllegalArgumentException("sender " + id + ": CAT sends through mail, sms and weixin " +
                    "senders only");
            }
            if (!url.startsWith("http://") && !url.startsWith("https://"))
            {
                throw new IllegalArgumentException("sender " + id + ": url must be http:// or https://, got '" +
                    url + "'");
            }
            if (!"get".equalsIgnoreCase(type) && !"post".equalsIgnoreCase(type))
            {
                throw new IllegalArgumentException("sender " + id + ": type must be get or post, got '" + type +
                    "'");
            }
            if (s.getAttribute("successCode").isEmpty())
            {
                throw new IllegalArgumentException("sender " + id + ": needs a successCode");
            }
            final List<String> pars = new ArrayList<>();
            for (final Element p : CatXml.children(s, "par"))
            {
                pars.add(p.getAttribute("id"));
            }
            senders.put(id, new Sender(id, url, "post".equalsIgnoreCase(type), s.getAttribute("successCode"),
                Boolean.parseBoolean(s.getAttribute("batchSend").trim()), String.join("&", pars)));
        }
        return new CatSenders(Map.copyOf(senders));
    }

    /**
     * @param channel a channel.
     * @return its gateway, or null when none is configured.
     */
    public Sender sender(final String channel)
    {
        return senders.get(channel);
    }

    /**
     * CAT's spliters: the content as each channel shows it (mail: as is; weixin: line breaks for {@code <br/>},
     * no {@code <div>} or {@code <table>}; sms and dx: spaces for {@code <br/>}, no {@code <div>}).
     *
     * @param channel a channel.
     * @param content an alert's content.
     * @return the content for that channel.
     */
    public static String split(final String channel, final String content)
    {
        switch (channel)
        {
            case "weixin":
                return TABLE.matcher(DIV.matcher(content.replace("<br/>", "\n")).replaceAll("")).replaceAll("");
            case "sms":
            case "dx":
                return DIV.matcher(content.replace("<br/>", " ")).replaceAll("");
            default:
                return content;
        }
    }

    /**
     * @param channel a channel with a gateway.
     * @param message the message.
     * @param time    the sending minute as {@code yyyyMMddHHmm} (mail's {@code ${time}}).
     * @return the requests CAT would make, one per receiver or one for all.
     */
    public List<Request> requests(final String channel, final Message message, final String time)
    {
        final Sender s = senders.get(channel);
        final List<Request> out = new ArrayList<>();
        if (s == null || message.receivers().isEmpty())
        {
            return out;
        }
        final List<String> targets = s.batchSend() ? List.of(String.join(",", message.receivers())) :
            message.receivers();
        for (final String receiver : targets)
        {
            final String pars = fill(channel, s.pars(), message, receiver, time);
            out.add(s.post() ? new Request(s, s.url(), pars) : new Request(s, s.url() + "?" + pars, null));
        }
        return out;
    }

    private static String fill(final String channel, final String pars, final Message m, final String receiver,
        final String time)
    {
        switch (channel)
        {
            case "mail":
                // CAT leaves the mail receiver unencoded
                return pars.replace("${receiver}", receiver)
                    .replace("${title}", enc(m.title().replace(",", " ")))
                    .replace("${content}", enc(m.content().replace(",", " ")))
                    .replace("${time}", enc(time));
            case "sms":
                return pars.replace("${receiver}", enc(receiver))
                    .replace("${content}", enc(m.title() + " " + LINK_OR_NEWLINE.matcher(m.content()).replaceAll("")));
            case "weixin":
                return pars.replace("${domain}", enc(m.group()))
                    .replace("${receiver}", enc(receiver))
                    .replace("${title}", enc(m.title().replace(",", " ")))
                    .replace("${content}", enc(LINK.matcher(m.content().replace(",", " ")).replaceAll("")))
                    .replace("${type}", enc(m.type()));
            default:
                throw new IllegalArgumentException("no sender for channel " + channel);
        }
    }

    private static String enc(final String s)
    {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
