package io.cheetah.server.alert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.server.fixtures.AlertReceiver;
import io.cheetah.core.fixtures.LoopbackJetty;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HttpAlertSenderTest
{
    private static final long MINUTE = 1_795_316_460_000L;

    private static Alert alert(final long minute, final long first, final boolean resolved)
    {
        return new Alert("transaction", "shop;URL;/pay;count", "shop", "URL", "/pay", "count", "error", minute, first,
            "transaction URL /pay count of shop", resolved);
    }

    @Test
    void alertmanagerGetsV2AlertsWithLabelsAndALinkAndARefusalIsRetried() throws Exception
    {
        final AlertReceiver am = new AlertReceiver(1);
        try (LoopbackJetty jetty = new LoopbackJetty(am);
             HttpAlertSender sender = new HttpAlertSender(HttpAlertSender.Target.ALERTMANAGER, jetty.uri("/").toString(),
                 "http://cheetah:8080", "", 10))
        {
            sender.accept(alert(MINUTE, MINUTE, false));
            await(() -> sender.delivered() == 1);
            assertThat(sender.attempts()).as("one 500, then accepted").isEqualTo(2);
            assertThat(am.received()).hasSize(2).allSatisfy(r -> assertThat(r.path()).isEqualTo("/api/v2/alerts"));
            final JsonNode a = new ObjectMapper().readTree(am.received().get(1).body()).get(0);
            assertThat(a.path("labels").path("alertname").asText()).isEqualTo("cat-transaction-count");
            assertThat(a.path("labels").path("domain").asText()).isEqualTo("shop");
            assertThat(a.path("labels").path("name").asText()).isEqualTo("/pay");
            assertThat(a.path("labels").path("severity").asText()).isEqualTo("error");
            assertThat(a.path("startsAt").asText()).isEqualTo("2026-11-22T03:01:00Z");
            assertThat(a.path("generatorURL").asText())
                .isEqualTo("http://cheetah:8080/cat/r/t?domain=shop&date=2026112203&type=URL");

            sender.accept(alert(MINUTE + 60_000, MINUTE, true));
            await(() -> sender.delivered() == 2);
            final JsonNode r = new ObjectMapper().readTree(am.received().get(2).body()).get(0);
            assertThat(r.path("endsAt").asText()).as("resolved: ended").isEqualTo("2026-11-22T03:03:00Z");
        }
    }

    @Test
    void aWebhookHearsOfTheStartAndTheEndSignedAndAHangingOneDelaysNothing() throws Exception
    {
        final AlertReceiver hook = new AlertReceiver(0);
        try (LoopbackJetty jetty = new LoopbackJetty(hook);
             HttpAlertSender sender = new HttpAlertSender(HttpAlertSender.Target.WEBHOOK,
                 jetty.uri("/hooks/cat").toString(), "http://cheetah:8080", "s3cret", 10))
        {
            sender.accept(alert(MINUTE, MINUTE, false));
            sender.accept(alert(MINUTE + 60_000, MINUTE, false)); // still firing: not repeated
            sender.accept(alert(MINUTE + 120_000, MINUTE, true));
            await(() -> sender.delivered() == 2);
            assertThat(hook.received()).hasSize(2);
            final AlertReceiver.Received first = hook.received().get(0);
            assertThat(first.path()).isEqualTo("/hooks/cat");
            final JsonNode body = new ObjectMapper().readTree(first.body());
            assertThat(body.path("status").asText()).isEqualTo("firing");
            assertThat(body.path("rule").asText()).isEqualTo("shop;URL;/pay;count");
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec("s3cret".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            assertThat(first.signature()).isEqualTo("sha256=" +
                HexFormat.of().formatHex(mac.doFinal(first.body().getBytes(StandardCharsets.UTF_8))));
            assertThat(new ObjectMapper().readTree(hook.received().get(1).body()).path("status").asText())
                .isEqualTo("resolved");

            hook.hang(true);
            final long start = System.nanoTime();
            for (int i = 0; i < 2_000; i++)
            {
                sender.accept(alert(MINUTE + i * 60_000L, MINUTE + i * 60_000L, false));
            }
            assertThat((System.nanoTime() - start) / 1_000_000).as("ms to hand 2,000 alerts over").isLessThan(2_000);
            assertThat(sender.dropped()).as("beyond the queue's 1,024, counted").isPositive();
            hook.hang(false);
        }
    }

    @Test
    void slackDingTalkAndWeComRobotsGetTheirOwnMessagesWithNamesKeptInert() throws Exception
    {
        final Alert hostile = new Alert("transaction", "shop;URL;<!channel> [x](http://evil);count", "shop", "URL",
            "<!channel> [x](http://evil)", "count", "error", MINUTE, MINUTE, "transaction URL <!channel> count", false);
        final AlertReceiver slack = new AlertReceiver(0);
        try (LoopbackJetty jetty = new LoopbackJetty(slack);
             HttpAlertSender sender = new HttpAlertSender(HttpAlertSender.Target.SLACK, jetty.uri("/s").toString(),
                 "http://cheetah:8080", "", 10))
        {
            sender.accept(hostile);
            await(() -> sender.delivered() == 1);
            final String text = new ObjectMapper().readTree(slack.received().get(0).body()).path("text").asText();
            assertThat(text).startsWith("*FIRING ERROR: cat transaction shop URL-&lt;!channel&gt; [x](http://evil)-count*")
                .doesNotContain("<!channel>")
                .endsWith("<http://cheetah:8080/cat/r/t?domain=shop&date=2026112203&type=URL|report>");
        }

        final AlertReceiver ding = new AlertReceiver(0);
        ding.answer("{\"errcode\":310000,\"errmsg\":\"sign not match\"}");
        try (LoopbackJetty jetty = new LoopbackJetty(ding);
             HttpAlertSender sender = new HttpAlertSender(HttpAlertSender.Target.DINGTALK,
                 jetty.uri("/robot/send?access_token=t0k").toString(), "http://cheetah:8080", "SECabc", 10))
        {
            sender.accept(hostile);
            await(() -> sender.failed() == 1);
            assertThat(sender.attempts()).as("an errcode is a refusal, retried").isEqualTo(HttpAlertSender.ATTEMPTS);
            final AlertReceiver.Received r = ding.received().get(0);
            final java.util.Map<String, String> q = new java.util.HashMap<>();
            for (final String p : r.query().split("&"))
            {
                q.put(p.substring(0, p.indexOf('=')), java.net.URLDecoder.decode(p.substring(p.indexOf('=') + 1),
                    StandardCharsets.UTF_8));
            }
            assertThat(q).containsEntry("access_token", "t0k");
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec("SECabc".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            assertThat(q.get("sign")).isEqualTo(java.util.Base64.getEncoder().encodeToString(
                mac.doFinal((q.get("timestamp") + "\nSECabc").getBytes(StandardCharsets.UTF_8))));
            final JsonNode body = new ObjectMapper().readTree(r.body());
            assertThat(body.path("msgtype").asText()).isEqualTo("markdown");
            assertThat(body.path("markdown").path("text").asText()).contains("\\[x\\]\\(http://evil\\)")
                .contains("[report](http://cheetah:8080/cat/r/t?domain=shop");
            ding.answer("{\"errcode\":0,\"errmsg\":\"ok\"}");
            sender.accept(new Alert("event", "shop;Error;;count", "shop", "Error", "", "count", "warning", MINUTE,
                MINUTE, "event Error count of shop", false));
            await(() -> sender.delivered() == 1);
        }

        final AlertReceiver wecom = new AlertReceiver(0);
        wecom.answer("{\"errcode\":0,\"errmsg\":\"ok\"}");
        try (LoopbackJetty jetty = new LoopbackJetty(wecom);
             HttpAlertSender sender = new HttpAlertSender(HttpAlertSender.Target.WECOM,
                 jetty.uri("/cgi-bin/webhook/send?key=k").toString(), "http://cheetah:8080", "", 10))
        {
            sender.accept(hostile);
            sender.accept(new Alert("transaction", "shop;URL;;count", "shop", "URL", "", "count", "error",
                MINUTE + 60_000, MINUTE, "repeat", false)); // still firing: not repeated to a robot
            await(() -> sender.delivered() == 1);
            Thread.sleep(200);
            assertThat(wecom.received()).hasSize(1);
            assertThat(new ObjectMapper().readTree(wecom.received().get(0).body()).path("markdown").path("content")
                .asText()).startsWith("### FIRING ERROR: cat transaction shop");
        }
        assertThat(HttpAlertSender.Target.webhook("wecom")).isEqualTo(HttpAlertSender.Target.WECOM);
        assertThatThrownBy(() -> HttpAlertSender.Target.webhook("teams")).hasMessageContaining("got teams");
    }

    private static void await(final BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + 10_000;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(10);
        }
        assertThat(condition.getAsBoolean()).as("in time").isTrue();
    }
}
