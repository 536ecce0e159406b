package io.cheetah.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.analysis.business.BusinessAnalyzer;
import io.cheetah.analysis.business.BusinessLoss;
import io.cheetah.analysis.business.BusinessReport;
import io.cheetah.analysis.event.EventAnalyzer;
import io.cheetah.analysis.storage.StorageAnalyzer;
import io.cheetah.analysis.storage.StorageReport;
import io.cheetah.analysis.top.TopAnalyzer;
import io.cheetah.analysis.top.TopReport;
import io.cheetah.analysis.transaction.TransactionAnalyzer;
import io.cheetah.codec.FrameError;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.report.DomainReport;
import io.cheetah.report.MachineTally;
import io.cheetah.report.NameCleaner;
import io.cheetah.report.SymbolTable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Iterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Feeds the real-client captures through the Transaction, Event and Business analyzers and checks every type/name
 * total and failure count, and every metric key's count and sum, against the capture's {@code .totals.json} (the
 * wire counts, batch data expanded; metric data read by CAT's rules here, independently of the analyzer). Frames
 * whose codec this build cannot decode yet are skipped; a capture whose trees were skipped is not compared.
 */
class VectorsReportTest
{
    static List<String> captures()
    {
        return Vectors.CAPTURES;
    }

    @ParameterizedTest
    @MethodSource("captures")
    void reportTotalsMatchTheWire(final String capture) throws Exception
    {
        final TreeDecoder decoder = new TreeDecoder();
        final FlatTree tree = new FlatTree();
        final TransactionAnalyzer tx = new TransactionAnalyzer(AnalyzerContext.single());
        final BusinessAnalyzer business = new BusinessAnalyzer(AnalyzerContext.single());
        final AnalyzerType businessType = byName(BusinessReport.NAME);
        final TopAnalyzer top = new TopAnalyzer(AnalyzerContext.single());
        final AnalyzerType topType = byName(TopReport.NAME);
        final EventAnalyzer ev = new EventAnalyzer(AnalyzerContext.single());
        final StorageAnalyzer storage = new StorageAnalyzer(AnalyzerContext.single());
        final AnalyzerType storageType = byName(StorageReport.NAME);
        final AnalyzerType txType = byName("transaction");
        final AnalyzerType evType = byName("event");
        int skippedTrees = 0;
        String domain = null;
        long hour = 0;
        for (final byte[] frame : Vectors.frames(Vectors.bytes(capture + ".frames")))
        {
            try
            {
                decoder.decodeFrame(frame, 0, frame.length, tree);
            }
            catch (final MalformedFrameException e)
            {
                assertThat(e.error()).isEqualTo(FrameError.UNKNOWN_CODEC);
                // NB1 metric bags hold no transaction or event; anything else skipped makes totals incomparable
                skippedTrees += frame[4] == 'N' && frame[5] == 'B' ? 0 : 1;
                continue;
            }
            hour = tree.rootTimestamp() - tree.rootTimestamp() % 3_600_000L;
            domain = tree.domain();
            if (txType.accepts(tree))
            {
                tx.process(tree, hour);
            }
            if (evType.accepts(tree))
            {
                ev.process(tree, hour);
            }
            if (businessType.accepts(tree))
            {
                business.process(tree, hour);
            }
            if (topType.accepts(tree))
            {
                top.process(tree, hour);
            }
            if (storageType.accepts(tree))
            {
                storage.process(tree, hour);
            }
            assertThat(txType.accepts(tree)).isEqualTo(tree.count(MessageKind.TRANSACTION) > 0);
        }
        // a decode regression on a real client's capture must fail here, not turn the comparison into a skip
        assertThat(skippedTrees).as(capture + ": frames (other than NB1 metric bags) not decodable").isZero();
        final JsonNode totals = new ObjectMapper().readTree(Vectors.text(capture + ".totals.json"));
        assertThat(flatten((DomainReport)tx.snapshot(hour, domain))).isEqualTo(expected(totals.path("transaction")));
        assertThat(flatten((DomainReport)ev.snapshot(hour, domain))).isEqualTo(expected(totals.path("event")));
        assertThat(tx.folds().messagesSkipped()).isZero();
        assertThat(CaptureMetrics.actual(business.snapshot(hour, domain))).isEqualTo(CaptureMetrics.expected(totals));
        assertThat(business.counters().get(BusinessLoss.METRIC_MALFORMED)).isZero();
        assertThat(topErrors((TopReport)top.snapshot(hour, TopReport.DOMAIN), domain))
            .isEqualTo(CaptureMetrics.errors(totals));
        // no capture calls a database, cache or RPC service (no SQL, Cache.*, Squirrel.*, Call or PigeonCall
        // transaction in its totals), so the Storage report must stay empty rather than invent a store
        final List<String> storeTypes = new ArrayList<>();
        totals.path("transaction").fieldNames().forEachRemaining(t -> {
            if (t.equals("SQL") || t.startsWith("Cache.") || t.startsWith("Squirrel.") || t.equals("Call") ||
                t.equals("PigeonCall"))
            {
                storeTypes.add(t);
            }
        });
        assertThat(storeTypes).isEmpty();
        assertThat(storage.domains(hour)).isEmpty();
    }

    private static Map<String, Long> topErrors(final TopReport report, final String domain)
    {
        final Map<String, Long> out = new TreeMap<>();
        final TopReport.Domain d = report == null ? null : report.find(domain);
        if (d != null)
        {
            for (final TopReport.Segment s : d.segments())
            {
                s.exceptions().forEach(c -> out.merge(c.id(), c.count(), Long::sum));
            }
            assertThat(report.domains()).hasSize(1);
        }
        return out;
    }

    private static AnalyzerType byName(final String name)
    {
        return AnalyzerCatalog.builtIn().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    private static Map<String, String> expected(final JsonNode byType)
    {
        final NameCleaner cleaner = new NameCleaner(256);
        final Map<String, String> out = new TreeMap<>();
        for (final Iterator<Map.Entry<String, JsonNode>> t = byType.fields(); t.hasNext(); )
        {
            final Map.Entry<String, JsonNode> type = t.next();
            for (final Iterator<Map.Entry<String, JsonNode>> n = type.getValue().fields(); n.hasNext(); )
            {
                final Map.Entry<String, JsonNode> name = n.next();
                out.put(cleaner.clean(type.getKey()) + " / " + cleaner.clean(name.getKey()),
                    name.getValue().path("count").asLong() + " (" + name.getValue().path("fail").asLong() + ")");
            }
        }
        return out;
    }

    private static Map<String, String> flatten(final DomainReport r)
    {
        final Map<String, String> out = new TreeMap<>();
        if (r == null)
        {
            return out;
        }
        final SymbolTable s = r.symbols();
        assertThat(r.machines()).hasSize(1);
        final MachineTally m = r.machines().values().iterator().next();
        m.types().forEach((t, type) ->
        {
            final long[] sum = new long[2];
            type.names().forEach((n, name) ->
            {
                out.put(s.string(t) + " / " + s.string(n), name.totalCount() + " (" + name.failCount() + ")");
                sum[0] += name.totalCount();
                sum[1] += name.failCount();
            });
            assertThat(type.totalCount()).isEqualTo(sum[0]);
            assertThat(type.failCount()).isEqualTo(sum[1]);
        });
        return out;
    }
}
