package io.cheetah.server.alert;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MonitorRulesTest
{
    /** A transactionRule document as CAT's console writes it. */
    private static final String TRANSACTION_RULES = """
        <?xml version="1.0" encoding="utf-8"?>
        <monitor-rules>
           <rule id="shop;URL;/pay;count">
              <config starttime="00:00" endtime="08:00">
                 <condition minute="2" alertType="warning">
                    <sub-condition type="MaxVal" text="100"/>
                 </condition>
              </config>
              <config starttime="08:00" endtime="24:00">
                 <condition minute="3">
                    <sub-condition type="MaxVal" text="500"/>
                    <sub-condition type="FluAscPer" text="50"/>
                 </condition>
                 <condition title="any slow minute">
                    <sub-condition type="SumMaxVal" text="5000"/>
                 </condition>
              </config>
           </rule>
           <rule id="shop;SQL;;avg" available="false">
              <config starttime="00:00" endtime="24:00">
                 <condition><sub-condition type="MaxVal" text="300"/></condition>
              </config>
           </rule>
        </monitor-rules>
        """;

    @Test
    void rulesBandsConditionsAndCatsDefaultsAreRead()
    {
        final MonitorRules rules = MonitorRules.parse(TRANSACTION_RULES);
        assertThat(rules.rules()).extracting(MonitorRules.Rule::id).containsExactly("shop;URL;/pay;count",
            "shop;SQL;;avg");
        final MonitorRules.Rule pay = rules.rules().get(0);
        assertThat(pay.available()).isTrue();
        assertThat(rules.rules().get(1).available()).isFalse();
        assertThat(pay.conditionsAt(7 * 60)).singleElement().satisfies(c ->
        {
            assertThat(c.minutes()).isEqualTo(2);
            assertThat(c.alertType()).isEqualTo("warning");
        });
        final List<MonitorRules.Condition> day = pay.conditionsAt(12 * 60);
        assertThat(day).hasSize(2);
        assertThat(day.get(1).minutes()).as("CAT's default window").isEqualTo(3);
        assertThat(day.get(1).alertType()).as("CAT's default level").isEqualTo("error");
        // both bands hold 08:00, as CAT compares with <= at both ends
        assertThat(pay.conditionsAt(8 * 60)).hasSize(3);
    }

    @Test
    void aConditionLooksAtItsLastMinutesAndNeedsEverySubCondition()
    {
        final MonitorRules.Condition c = MonitorRules.parse(TRANSACTION_RULES).rules().get(0).conditionsAt(600)
            .get(0);
        // window of 3: 400, 600, 900 -> MaxVal 500 fails at 400
        assertThat(c.firesOn(new double[] {10, 400, 600, 900})).isFalse();
        // window 600, 700, 1050: all >= 500 and 1050 is 50 % above 700 and 75 % above 600
        assertThat(c.firesOn(new double[] {10, 600, 700, 1050})).isTrue();
        // the same without the 50 % rise
        assertThat(c.firesOn(new double[] {10, 600, 700, 1000})).isFalse();
        // fewer values than the window: all of them
        assertThat(c.firesOn(new double[] {600, 900})).isTrue();
    }

    @Test
    void aRuleThatCannotBeEvaluatedStopsTheLoadNamingIt()
    {
        assertThatThrownBy(() -> MonitorRules.parse(TRANSACTION_RULES.replace("\"FluAscPer\"", "\"UserDefine\"")))
            .hasMessageStartingWith("rule shop;URL;/pay;count: sub-condition type UserDefine");
        assertThatThrownBy(() -> MonitorRules.parse(TRANSACTION_RULES.replace("text=\"500\"", "text=\"lots\"")))
            .hasMessageStartingWith("rule shop;URL;/pay;count: sub-condition MaxVal needs a number, got 'lots'");
        assertThatThrownBy(() -> MonitorRules.parse(TRANSACTION_RULES.replace("endtime=\"08:00\"",
            "endtime=\"8 am\""))).hasMessageStartingWith("rule shop;URL;/pay;count: endtime must be HH:MM");
        assertThatThrownBy(() -> MonitorRules.parse(TRANSACTION_RULES.replace("minute=\"2\"", "minute=\"0\"")))
            .hasMessageContaining("condition minute must be 1..60");
        assertThatThrownBy(() -> MonitorRules.parse("<rules/>")).hasMessageContaining("expected <monitor-rules>");
        assertThatThrownBy(() -> MonitorRules.parse("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>" +
            "<monitor-rules>&e;</monitor-rules>")).hasMessageStartingWith("not a monitor-rules document");
    }
}
