package io.cheetah.server.alert;

import io.cheetah.analysis.top.TopReport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** CAT's exception limits on a minute of the Top report, cases worked out from CAT's {@code AlertExceptionBuilder}. */
class ExceptionRulesTest
{
    /** CAT's own sample, plus limits of our own. */
    static final String CONFIG = """
        <exception-rule-config>
          <exception-limit id="cat:Total" domain="cat" name="Total" warning="100" error="300" />
          <exception-exclude id="cat:java.net.ConnectException" domain="cat" name="java.net.ConnectException"/>
          <exception-limit id="Default:Total" domain="Default" name="Total" warning="20" error="40" />
          <exception-limit id="shop:java.lang.NullPointerException" domain="shop" name="java.lang.NullPointerException"
             warning="5" error="10" />
          <exception-limit id="Default:java.lang.IllegalStateException" domain="Default"
             name="java.lang.IllegalStateException" warning="3" error="0" />
          <exception-limit id="cart:Total" domain="cart" name="Total" warning="1" error="1" available="false" />
          <exception-exclude id="Default:java.net.SocketTimeoutException" domain="Default"
             name="java.net.SocketTimeoutException"/>
        </exception-rule-config>
        """;

    private static TopReport.Domain domain(final String name, final int minute, final TopReport.Count... counts)
    {
        long total = 0;
        for (final TopReport.Count c : counts)
        {
            total += c.count();
        }
        return new TopReport.Domain(name, List.of(new TopReport.Segment(minute - 1, 99, List.of(), List.of()),
            new TopReport.Segment(minute, total, List.of(counts), List.of())));
    }

    private static TopReport.Count c(final String id, final long count)
    {
        return new TopReport.Count(id, count);
    }

    @Test
    void eachExceptionAgainstItsOwnOrTheDefaultLimitAndTheTotalOfWhatIsNotExcluded()
    {
        final ExceptionRules rules = ExceptionRules.parse(CONFIG);
        final TopReport top = new TopReport(TopReport.DOMAIN, 0, List.of(
            domain("shop", 7, c("java.lang.NullPointerException", 12), c("java.lang.IllegalStateException", 3),
                c("java.net.SocketTimeoutException", 500), c("java.io.IOException", 9)),
            domain("cat", 7, c("java.net.ConnectException", 1_000), c("java.io.IOException", 120)),
            domain("cart", 7, c("java.io.IOException", 50)),
            domain("FrontEnd", 7, c("java.io.IOException", 5_000))));
        assertThat(rules.breaches(top, 7)).containsExactlyInAnyOrder(
            // its own limit: error (12 >= 10)
            new ExceptionRules.Breach("shop", "java.lang.NullPointerException", "error", 12),
            // Default limit, error 0 is off: warning (3 >= 3)
            new ExceptionRules.Breach("shop", "java.lang.IllegalStateException", "warning", 3),
            // Default Total over 12 + 3 + 9 = 24 (the excluded SocketTimeoutException left out): warning
            new ExceptionRules.Breach("shop", "Total", "warning", 24),
            // cat's own Total over 120 (ConnectException excluded for cat): warning
            new ExceptionRules.Breach("cat", "Total", "warning", 120));
        // cart's Total limit is switched off; FrontEnd is never looked at; another minute holds 99 unnamed errors
        assertThat(rules.breaches(top, 6)).isEmpty();
        assertThat(rules.breaches(null, 7)).isEmpty();
    }

    @Test
    void aLimitThatCannotBeReadIsNamed()
    {
        assertThatThrownBy(() -> ExceptionRules.parse(CONFIG.replace("warning=\"5\"", "warning=\"many\"")))
            .hasMessage("exception-limit shop:java.lang.NullPointerException: warning must be a whole number, got " +
                "'many'");
        assertThatThrownBy(() -> ExceptionRules.parse("<monitor-rules/>"))
            .hasMessageContaining("expected <exception-rule-config>");
    }
}
