package io.cheetah.server.alert;

import io.cheetah.server.fixtures.AlertReceiver;
import io.cheetah.core.fixtures.LoopbackJetty;
import org.junit.jupiter.api.Test;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CatChannelsTest
{
    private static final long M = 1_795_316_460_000L; // 2026-11-22T03:01:00Z
    private static final long MIN = 60_000L;

    static final String POLICY = """
        <alert-policy>
          <type id="Transaction">
            <group id="default">
              <level id="error" send="mail,sms,weixin" suspendMinute="3" recoverMinute="2"/>
            </group>
            <group id="vip">
              <level id="error" send="sms"/>
            </group>
          </type>
          <type id="default">
            <group id="default">
              <level id="error" send="mail"/>
            </group>
          </type>
        </alert-policy>""";

    static final String RECEIVERS = """
        <alert-config>
          <receiver id="Transaction" enable="true">
            <email>a@x</email><email>b@x</email><phone>111</phone><weixin>w1</weixin>
          </receiver>
          <receiver id="Exception" enable="false"><email>a@x</email></receiver>
        </alert-config>""";

    static final String PROJECTS = "domain\towner\temail\tphone\nshop\tAnn\tc@x,a@x\t222\nvip\tBo\tNULL\t333\n";

    static String senders(final String base)
    {
        return """
            <sender-config>
              <sender id="mail" url="%s/mail" type="post" successCode="200" batchSend="true">
                <par id="type=1500"/><par id="to=${receiver}"/><par id="value=${title},${content}"/>
              </sender>
              <sender id="sms" url="%s/sms" type="get" successCode="ok" batchSend="false">
                <par id="mobile=${receiver}"/><par id="body=${content}"/>
              </sender>
              <sender id="weixin" url="%s/weixin" type="post" successCode="success" batchSend="true">
                <par id="domain=${domain}"/><par id="email=${receiver}"/><par id="title=${title}"/><par id="type=${type}"/>
              </sender>
            </sender-config>""".formatted(base, base, base);
    }

    private static Alert alert(final String domain, final long minute, final long first, final boolean resolved)
    {
        return new Alert("transaction", domain + ";URL;/pay;count", domain, "URL", "/pay", "count", "error", minute,
            first, "transaction URL /pay count of " + domain + ", last 3 minutes [9.0, 9.0, 9.0]: MaxVal 5", resolved);
    }

    private static Map<String, String> form(final String text)
    {
        final Map<String, String> out = new LinkedHashMap<>();
        for (final String p : text.split("&"))
        {
            final int eq = p.indexOf('=');
            out.put(p.substring(0, eq), URLDecoder.decode(p.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    /** CatChannels with {@link #POLICY}, {@link #RECEIVERS}, {@link #PROJECTS} and a gateway per channel at jetty. */
    private static CatChannels channels(final LoopbackJetty jetty)
    {
        return new CatChannels(AlertPolicy.parse(POLICY), AlertReceivers.parse(RECEIVERS, PROJECTS),
            CatSenders.parse(senders(jetty.uri("").toString().replaceAll("/+$", ""))), "http://cheetah:8080",
            ZoneOffset.UTC, 10);
    }

    @Test
    void policyReceiversAndGatewaysAsCatUsesThemWithSuspensionAndOneRecoveryAfterTheQuietMinutes() throws Exception
    {
        final AlertReceiver gateway = new AlertReceiver(0);
        gateway.answer("200 ok success");
        try (LoopbackJetty jetty = new LoopbackJetty(gateway);
             CatChannels channels = channels(jetty))
        {
            channels.accept(alert("shop", M, M, false));
            channels.minuteDone(M);
            await(() -> gateway.received().size() == 4);
            final List<AlertReceiver.Received> first = gateway.received();
            final AlertReceiver.Received mail = first.stream().filter(r -> r.path().equals("/mail")).findFirst()
                .orElseThrow();
            assertThat(mail.method()).isEqualTo("POST");
            final Map<String, String> m = form(mail.body());
            assertThat(m.get("type")).isEqualTo("1500");
            assertThat(m.get("to")).as("the type's receivers, then the project's, once each").isEqualTo("a@x,b@x,c@x");
            assertThat(m.get("value")).startsWith("[CAT Transaction告警] [项目: shop] [监控项: URL-/pay-count],")
                .contains("[CAT Transaction告警: shop URL /pay] : transaction URL /pay count of shop")
                .contains("[时间: 2026-11-22 03:01]")
                .contains("<a href='http://cheetah:8080/cat/r/t?domain=shop&type=URL&name=%2Fpay&date=2026112203'>")
                .endsWith("<br/>[告警间隔时间]3分钟");
            assertThat(first.stream().filter(r -> r.path().equals("/sms")).map(r -> form(r.query()).get("mobile")))
                .as("one GET per phone when not batched").containsExactlyInAnyOrder("111", "222");
            assertThat(first.stream().filter(r -> r.path().equals("/sms")).map(r -> form(r.query()).get("body")))
                .allSatisfy(b -> assertThat(b).startsWith("[CAT Transaction告警] [项目: shop]").doesNotContain("<a href")
                    .doesNotContain("\n"));
            final AlertReceiver.Received weixin = first.stream().filter(r -> r.path().equals("/weixin")).findFirst()
                .orElseThrow();
            assertThat(form(weixin.body())).containsEntry("email", "w1,c@x,a@x").containsEntry("domain", "shop")
                .containsEntry("type", "Transaction");

            for (int i = 1; i <= 2; i++)
            {
                channels.accept(alert("shop", M + i * MIN, M, false));
                channels.minuteDone(M + i * MIN);
            }
            assertThat(channels.suspended()).as("minutes 1 and 2 are within suspendMinute=3").isEqualTo(2);
            channels.accept(alert("shop", M + 3 * MIN, M, false));
            channels.minuteDone(M + 3 * MIN);
            await(() -> gateway.received().size() == 8);
            assertThat(channels.messages()).isEqualTo(2);

            channels.accept(alert("shop", M + 4 * MIN, M, true));
            channels.minuteDone(M + 4 * MIN);
            Thread.sleep(300);
            assertThat(gateway.received()).as("recoverMinute=2: not after one quiet minute").hasSize(8);
            channels.minuteDone(M + 5 * MIN);
            await(() -> gateway.received().size() == 12);
            assertThat(channels.recoveries()).isEqualTo(1);
            final AlertReceiver.Received recovery = gateway.received().stream().skip(8)
                .filter(r -> r.path().equals("/mail")).findFirst().orElseThrow();
            assertThat(form(recovery.body()).get("value"))
                .isEqualTo("[告警恢复] [告警类型 Transaction告警][shop URL-/pay-count],[告警已恢复][恢复时间]2026-11-22 03:07");
            channels.minuteDone(M + 6 * MIN);
            Thread.sleep(300);
            assertThat(gateway.received()).as("announced once").hasSize(12);

            // fires again after the recovery: sent at once (the suspension ended with the recovery)
            channels.accept(alert("shop", M + 7 * MIN, M + 7 * MIN, false));
            await(() -> gateway.received().size() == 16);
        }
    }

    @Test
    void aRuleThatFiresAgainBeforeItsQuietMinutesEndIsNeverAnnouncedRecovered() throws Exception
    {
        final AlertReceiver gateway = new AlertReceiver(0);
        gateway.answer("200 ok success");
        try (LoopbackJetty jetty = new LoopbackJetty(gateway);
             CatChannels channels = channels(jetty))
        {
            assertThat(channels.deliver(alert("shop", M, M, false))).as("sent, so stored").isTrue();
            assertThat(channels.deliver(alert("shop", M + MIN, M, true))).as("a resolution is stored").isTrue();
            channels.minuteDone(M + MIN);
            assertThat(channels.deliver(alert("shop", M + 2 * MIN, M + 2 * MIN, false)))
                .as("held back by suspendMinute: CAT stores nothing either").isFalse();
            channels.minuteDone(M + 2 * MIN);
            channels.minuteDone(M + 3 * MIN);
            channels.minuteDone(M + 4 * MIN);
            assertThat(channels.recoveries()).isZero();
            assertThat(channels.suspended()).as("the repeat at minute 2 is within suspendMinute").isEqualTo(1);
        }
    }

    @Test
    void aDomainGroupReplacesDefaultAndADisabledReceiverSilencesItsType() throws Exception
    {
        final AlertReceiver gateway = new AlertReceiver(0);
        gateway.answer("ok");
        try (LoopbackJetty jetty = new LoopbackJetty(gateway);
             CatChannels channels = channels(jetty))
        {
            channels.accept(alert("vip", M, M, false));
            await(() -> gateway.received().size() == 2);
            assertThat(gateway.received()).allSatisfy(r -> assertThat(r.path()).isEqualTo("/sms"));
            assertThat(gateway.received().stream().map(r -> form(r.query()).get("mobile")))
                .containsExactlyInAnyOrder("111", "333");
            channels.accept(new Alert(AlertEvaluator.EXCEPTION, "shop:java.lang.Error", "shop", "Exception",
                "java.lang.Error", "count", "error", M, M, "java.lang.Error 12", false));
            assertThat(channels.noReceiver()).as("Exception's receiver is off, the project too").isEqualTo(1);
        }
    }

    @Test
    void aGatewayThatDoesNotAnswerItsSuccessCodeIsRetriedThenCountedFailed() throws Exception
    {
        final AlertReceiver gateway = new AlertReceiver(0);
        gateway.answer("{\"code\":500}");
        try (LoopbackJetty jetty = new LoopbackJetty(gateway);
             CatChannels channels = channels(jetty))
        {
            channels.accept(alert("vip", M, M, false));
            final DeliveryLine<CatSenders.Request> sms = channels.lines().stream()
                .filter(l -> l.name().equals("cat-sms")).findFirst().orElseThrow();
            await(() -> sms.failed() == 2);
            assertThat(sms.attempts()).isEqualTo(2L * DeliveryLine.ATTEMPTS);
            assertThat(sms.delivered()).isZero();
        }
    }

    @Test
    void thePolicyFallsBackAsCatsAndRefusesAnUnknownChannelByName()
    {
        final AlertPolicy p = AlertPolicy.parse(POLICY);
        assertThat(p.level("Transaction", "vip", "error").channels()).containsExactly("sms");
        assertThat(p.level("Transaction", "shop", "error").channels()).containsExactly("mail", "sms", "weixin");
        assertThat(p.level("Heartbeat", "shop", "error").channels()).as("type default").containsExactly("mail");
        assertThat(p.level("Heartbeat", "shop", "error").recoverMinute()).as("unset: the first quiet minute")
            .isEqualTo(1);
        assertThat(p.level("Transaction", "shop", "warning")).as("no such level: nothing sent").isNull();
        assertThatThrownBy(() -> AlertPolicy.parse("<alert-policy><type id=\"Event\"><group id=\"default\">" +
            "<level id=\"error\" send=\"mail,pigeon\"/></group></type></alert-policy>"))
            .hasMessageContaining("type Event, group default, level error").hasMessageContaining("'pigeon'");
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
