package io.cheetah.analysis.problem;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.CapturedTraffic;
import io.cheetah.codec.MalformedFrameException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Problem reports built from the real clients' captured traffic (vectors README): the entities must be the
 * failures, errors and heartbeats each client sent as full trees.
 */
class ProblemVectorsTest
{
    static ProblemReport.Machine run(final String capture, final String domain) throws MalformedFrameException
    {
        final ProblemAnalyzer analyzer = new ProblemAnalyzer(AnalyzerContext.single());
        final long hour = CapturedTraffic.feed(capture, ProblemAnalyzer.TYPE, analyzer);
        final ProblemReport report = (ProblemReport)analyzer.snapshot(hour, domain);
        assertThat(report.machines()).extracting(ProblemReport.Machine::ip).containsExactly("192.0.2.2");
        return report.machine("192.0.2.2");
    }

    @Test
    void catGoBasic() throws Exception
    {
        final ProblemReport.Machine m = run("cat-go/basic", "cat-go-sender");
        final ProblemReport.Entity tx4 = m.entity("AcceptanceTx", "tx-4");
        assertThat(tx4.count()).isEqualTo(3);
        assertThat(tx4.durations()).hasSize(1);
        assertThat(tx4.durations().get(0).value()).isZero();
        assertThat(tx4.durations().get(0).messages()).hasSize(3).allMatch(id -> id.startsWith("cat-go-sender-c0000202-498699-"));
        assertThat(m.entity("error", "CAT_ERROR").count()).isEqualTo(1);
        assertThat(m.entity("heartbeat", "192.0.2.2").count()).isEqualTo(2);
        // the exotic failed transaction, its status cleaned as CAT does at save
        assertThat(m.entity("Exotic.交易", StatusText.clean("订单/创建 <b>", 256)).count()).isEqualTo(1);
        // standalone-fail is a failed event of a non-error type: not a problem
        assertThat(m.entities()).extracting(ProblemReport.Entity::id).containsExactlyInAnyOrder(
            "AcceptanceTx:tx-4", "error:CAT_ERROR", "heartbeat:192.0.2.2", "Exotic.交易: / <b>");
    }

    /**
     * What every client's capture must give: its failed {@code tx-4} transactions sent as full trees, its error and
     * its heartbeats per sending IP ({@code -}: not checked for that capture).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(nullValues = "-", value = {
        "cat-go/sampled,          cat-go-sender,     4, CAT_ERROR,                        1, -",
        "cat-python/nt1-basic,    cat-python-sender, 3, ValueError,                       -, 1",
        "cat-java-3.1.0/basic,    cat-java31-sender, 3, java.lang.IllegalStateException, 1, 1",
        "cat-java-3.1.0/sampled,  cat-java31-sender, 1, java.lang.IllegalStateException, -, -",
        "cat-java-4.0-RC1/basic,  cat-java-sender,   3, java.lang.IllegalStateException, 2, -",
    })
    void eachClientsFailuresErrorsAndHeartbeats(final String capture, final String domain, final long tx4,
        final String error, final Long serverIpHeartbeats, final Long loopbackHeartbeats) throws Exception
    {
        // cat-java-3.1.0/sampled: three of the four tx-4 failures arrive folded into batch data (status 0), which
        // CAT's problem report does not see either
        final ProblemReport.Machine m = run(capture, domain);
        assertThat(m.entity("AcceptanceTx", "tx-4").count()).isEqualTo(tx4);
        assertThat(m.entity("error", error).count()).isEqualTo(1);
        if (serverIpHeartbeats != null)
        {
            assertThat(m.entity("heartbeat", "192.0.2.2").count()).isEqualTo(serverIpHeartbeats);
        }
        if (loopbackHeartbeats != null)
        {
            assertThat(m.entity("heartbeat", "127.0.0.1").count()).isEqualTo(loopbackHeartbeats);
        }
    }

    @Test
    void threadsAreTheTreesThreadGroups() throws Exception
    {
        final ProblemReport.JavaThread thread = run("cat-python/nt1-basic", "cat-python-sender")
            .entity("error", "ValueError").threads().get(0);
        assertThat(thread.id()).isEqualTo("cat");
        assertThat(thread.name()).isEqualTo("cat");
        assertThat(run("cat-java-3.1.0/basic", "cat-java31-sender").entity("AcceptanceTx", "tx-4").threads())
            .extracting(ProblemReport.JavaThread::id).containsExactly("main");
    }
}
