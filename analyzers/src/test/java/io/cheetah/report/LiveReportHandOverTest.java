package io.cheetah.report;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.EncodedReport;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.TreeBuilder;
import io.cheetah.analysis.event.EventAnalyzer;
import io.cheetah.analysis.transaction.TransactionAnalyzer;
import io.cheetah.report.TallyAnalyzer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a checkpoint and an hour's close hand to storage without copying the live report: the live report encoded
 * on its own thread ({@link TallyCodec#encodeLive}) and the closed report sealed in place ({@link DomainReport#seal})
 * must hold every figure a copy holds, types made from their names, also after a restore added figures to the
 * live types themselves.
 */
class LiveReportHandOverTest
{
    private static final long H = TreeBuilder.HOUR;

    private static TallyAnalyzer analyzer(final boolean transactions)
    {
        final AnalyzerContext ctx = AnalyzerContext.single();
        return transactions ? new TransactionAnalyzer(ctx) : new EventAnalyzer(ctx);
    }

    private static ReportFormat format(final boolean transactions)
    {
        return transactions ? TransactionAnalyzer.FORMAT : EventAnalyzer.FORMAT;
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void theEncodedCheckpointDecodesToTheSnapshotAndTheAnalyzerGoesOnCounting(final boolean transactions)
        throws Exception
    {
        final TallyAnalyzer live = analyzer(transactions);
        MergeLawsTest.feed(11, 300, new Object[] {live}, analyzer(transactions));

        final Report checkpoint = live.checkpoint(H, "d");
        assertThat(checkpoint).isInstanceOf(EncodedReport.class);
        final DomainReport decoded = (DomainReport)format(transactions).decode(((EncodedReport)checkpoint).bytes());
        final DomainReport snapshot = (DomainReport)live.snapshot(H, "d");
        assertThat(ReportDump.dump(decoded)).isEqualTo(ReportDump.dump(snapshot));
        assertThat(decoded.totalCount()).as("types hold their names' figures").isPositive()
            .isEqualTo(snapshot.totalCount());

        MergeLawsTest.feed(12, 50, new Object[] {live}, analyzer(transactions));
        final DomainReport later = (DomainReport)format(transactions)
            .decode(((EncodedReport)live.checkpoint(H, "d")).bytes());
        assertThat(later.totalCount()).isGreaterThan(decoded.totalCount());
        assertThat(ReportDump.dump(later)).isEqualTo(ReportDump.dump((DomainReport)live.snapshot(H, "d")));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aRestoredLiveReportEncodesAndSealsToWhatCountingEverythingInOneAnalyzerGives(final boolean transactions)
        throws Exception
    {
        final TallyAnalyzer before = analyzer(transactions);
        final TallyAnalyzer all = analyzer(transactions);
        MergeLawsTest.feed(21, 200, new Object[] {before}, all);
        final TallyAnalyzer restarted = analyzer(transactions);
        restarted.restore(before.snapshot(H, "d"));
        MergeLawsTest.feed(22, 200, new Object[] {restarted}, all);
        final String want = ReportDump.dump((DomainReport)all.snapshot(H, "d"), false);

        final DomainReport decoded = (DomainReport)format(transactions)
            .decode(((EncodedReport)restarted.checkpoint(H, "d")).bytes());
        assertThat(ReportDump.dump(decoded, false)).isEqualTo(want);

        final List<Report> closed = restarted.closeHour(H);
        assertThat(closed).hasSize(1);
        final DomainReport sealed = (DomainReport)closed.get(0);
        assertThat(ReportDump.dump(sealed, false)).isEqualTo(want);
        assertThat(ReportDump.dump((DomainReport)format(transactions).decode(format(transactions).encode(sealed)),
            false)).isEqualTo(want);
        assertThat(restarted.domains(H)).as("the closed hour is forgotten").isEmpty();
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aSmallReportEncodedAfterALargeOneOnTheSameThreadHoldsOnlyItsOwnBytes(final boolean transactions)
        throws Exception
    {
        final TallyAnalyzer large = analyzer(transactions);
        final TallyAnalyzer small = analyzer(transactions);
        MergeLawsTest.feed(31, 400, new Object[] {large}, analyzer(transactions));
        MergeLawsTest.feed(32, 3, new Object[] {small}, analyzer(transactions));
        final byte[] big = ((EncodedReport)large.checkpoint(H, "d")).bytes();
        final byte[] little = ((EncodedReport)small.checkpoint(H, "d")).bytes();
        assertThat(little.length).isLessThan(big.length);
        assertThat(ReportDump.dump((DomainReport)format(transactions).decode(little)))
            .isEqualTo(ReportDump.dump((DomainReport)small.snapshot(H, "d")));
        assertThat(ReportDump.dump((DomainReport)format(transactions).decode(
            ((EncodedReport)large.checkpoint(H, "d")).bytes())))
            .isEqualTo(ReportDump.dump((DomainReport)large.snapshot(H, "d")));
    }
}
