package io.cheetah.server.alert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.server.fixtures.AlertReceiver;
import io.cheetah.server.fixtures.LoopbackJetty;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

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
