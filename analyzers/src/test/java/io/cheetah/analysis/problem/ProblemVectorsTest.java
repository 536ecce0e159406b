package io.cheetah.analysis.problem;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.CapturedTraffic;
import io.cheetah.codec.MalformedFrameException;
import org.junit.jupiter.api.Test;

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

    @Test
    void catGoSampledSeesOnlyFullTreeFailures() throws Exception
    {
        final ProblemReport.Machine m = run("cat-go/sampled", "cat-go-sender");
        assertThat(m.entity("AcceptanceTx", "tx-4").count()).isEqualTo(4);
        assertThat(m.entity("error", "CAT_ERROR").count()).isEqualTo(1);
        assertThat(m.entity("heartbeat", "192.0.2.2").count()).isEqualTo(1);
    }

    @Test
    void catPythonBasic() throws Exception
    {
        final ProblemReport.Machine m = run("cat-python/nt1-basic", "cat-python-sender");
        assertThat(m.entity("AcceptanceTx", "tx-4").count()).isEqualTo(3);
        assertThat(m.entity("error", "ValueError").count()).isEqualTo(1);
        assertThat(m.entity("heartbeat", "127.0.0.1").count()).isEqualTo(1);
        final ProblemReport.JavaThread thread = m.entity("error", "ValueError").threads().get(0);
        assertThat(thread.id()).isEqualTo("cat");
        assertThat(thread.name()).isEqualTo("cat");
    }

    @Test
    void catJava31Basic() throws Exception
    {
        final ProblemReport.Machine m = run("cat-java-3.1.0/basic", "cat-java31-sender");
        assertThat(m.entity("AcceptanceTx", "tx-4").count()).isEqualTo(3);
        assertThat(m.entity("error", "java.lang.IllegalStateException").count()).isEqualTo(1);
        assertThat(m.entity("heartbeat", "192.0.2.2").count()).isEqualTo(1);
        assertThat(m.entity("heartbeat", "127.0.0.1").count()).isEqualTo(1);
        assertThat(m.entity("AcceptanceTx", "tx-4").threads()).extracting(ProblemReport.JavaThread::id)
            .containsExactly("main");
    }

    @Test
    void catJava31SampledCountsOnlyTheFailureSentAsATree() throws Exception
    {
        // three of the four tx-4 failures arrive folded into batch data (status 0): CAT's problem report
        // does not see them either.
        final ProblemReport.Machine m = run("cat-java-3.1.0/sampled", "cat-java31-sender");
        assertThat(m.entity("AcceptanceTx", "tx-4").count()).isEqualTo(1);
        assertThat(m.entity("error", "java.lang.IllegalStateException").count()).isEqualTo(1);
    }

    @Test
    void catJava40Basic() throws Exception
    {
        final ProblemReport.Machine m = run("cat-java-4.0-RC1/basic", "cat-java-sender");
        assertThat(m.entity("AcceptanceTx", "tx-4").count()).isEqualTo(3);
        assertThat(m.entity("error", "java.lang.IllegalStateException").count()).isEqualTo(1);
        assertThat(m.entity("heartbeat", "192.0.2.2").count()).isEqualTo(2);
    }
}
