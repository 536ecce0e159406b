package io.cheetah.analysis;

import io.cheetah.analysis.business.BusinessAnalyzer;
import io.cheetah.analysis.cross.CrossAnalyzer;
import io.cheetah.analysis.dependency.DependencyAnalyzer;
import io.cheetah.analysis.heartbeat.HeartbeatAnalyzer;
import io.cheetah.analysis.matrix.MatrixAnalyzer;
import io.cheetah.analysis.storage.StorageAnalyzer;
import io.cheetah.analysis.top.TopAnalyzer;
import io.cheetah.codec.SharedSymbols;
import io.cheetah.message.FlatTree;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static io.cheetah.analysis.TreeBuilder.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The analyzers that find entries and classify types by the ingest's shared symbols (Storage, Cross, Dependency,
 * Matrix, Business, Top and the domain look-up of every {@link DomainHoursAnalyzer}) must change nothing but speed: the same trees, with and
 * without symbols (and with a symbol table too small to hold every string, so both ways mix), give the same
 * reports and the same loss counts, whatever the caps fold or drop.
 */
class SymbolPathsTest
{
    private static final List<AnalyzerSpec> SPECS = List.of(StorageAnalyzer.TYPE, CrossAnalyzer.TYPE,
        DependencyAnalyzer.TYPE, MatrixAnalyzer.TYPE, BusinessAnalyzer.TYPE, HeartbeatAnalyzer.TYPE, TopAnalyzer.TYPE);

    private static final String[] DOMAINS = {"shop", "pay", "", "OTHERS", "odd\u0001domain", "cat", "search"};
    private static final String[] IPS = {"10.0.0.1", "10.0.0.2", "10.0.0.3", "", "10.0.0.4:77"};
    private static final String[] ROOTS = {"URL", "Service", "PigeonService", "Call", "Job"};
    private static final String[] NAMES = {"/shop/1", "/pay", "OTHERS", "", "svc.find", "N".repeat(40),
        "name\u0002odd"};
    private static final String[] URLS = {"jdbc:mysql://10.1.1.1:3306/orders?useSSL=false",
        "jdbc:mysql://db2.example/users", "jdbc:oracle:thin:@10.1.1.9:1521:ORCL", "not a url", ""};
    private static final String[] SQL_METHODS = {"SELECT", "insert", "Update", ""};
    private static final String[] STATEMENTS = {"Order.find", "User.get", "OTHERS", "", "Stmt\tx"};
    private static final String[] CACHES = {"Cache.redis", "Cache.memcached", "Cache.", "Squirrel.kv"};
    private static final String[] CACHE_NAMES = {"get:key1", "mget:key2", "get", "remove:k:x"};
    private static final String[] SERVERS = {"10.2.2.2:6379", "10.2.2.3", "", "10.3.3.3:2280", "host:x:y"};
    private static final String[] APPS = {"pay", "shop", "", "null", "unknown", "search", "odd\u0001domain"};
    private static final String[] PORTS = {"80", "81", ""};
    private static final String[] ERRORS = {"Exception", "Error", "RuntimeException", "Warn"};
    private static final String[] STATUSES = {"0", "0", "0", "Timeout", "ERROR"};
    private static final String[] METRIC_STATUSES = {"C", "S", "T", "S,C", "bad"};
    private static final String[] METRIC_DATA = {"1", "2.5", "3,40", "x"};

    @Property(tries = 40)
    void reportsAndLossesAreTheSameWithAndWithoutSymbols(@ForAll("seeds") final long seed,
        @ForAll @IntRange(min = 1, max = 4) final int cap, @ForAll @IntRange(min = 2, max = 400) final int symbols)
    {
        final ReportLimits limits = new ReportLimits(4, cap, cap + 1, cap, 3, 16, 8 * (cap + 2));
        for (final AnalyzerSpec spec : SPECS)
        {
            final Analyzer plain = spec.create(new AnalyzerContext(0, 1, limits));
            final Analyzer symbolic = spec.create(new AnalyzerContext(0, 1, limits));
            final SharedSymbols shared = new SharedSymbols(symbols);
            final Random random = new Random(seed);
            for (int t = 0; t < 400; t++)
            {
                final FlatTree tree = tree(random, t).tree();
                if (!spec.accepts(tree))
                {
                    continue;
                }
                plain.process(tree, HOUR);
                attachSymbols(tree, shared);
                symbolic.process(tree, HOUR);
            }
            assertThat(symbolic.domains(HOUR)).as(spec.name()).isEqualTo(plain.domains(HOUR));
            for (final String domain : plain.domains(HOUR))
            {
                assertThat(symbolic.snapshot(HOUR, domain)).as(spec.name() + " " + domain)
                    .isEqualTo(plain.snapshot(HOUR, domain));
            }
            assertThat(losses(symbolic)).as(spec.name()).isEqualTo(losses(plain));
        }
    }

    @Provide
    Arbitrary<Long> seeds()
    {
        return Arbitraries.longs();
    }

    private static TreeBuilder tree(final Random random, final int t)
    {
        final TreeBuilder b = new TreeBuilder(pick(random, DOMAINS), pick(random, IPS), "m-" + t);
        final long ts = HOUR + random.nextInt(3_600_000);
        final int root = b.tx(FlatTree.NONE, pick(random, ROOTS), pick(random, NAMES), pick(random, STATUSES), ts,
            random.nextInt(900_000), "");
        for (int k = random.nextInt(7); k > 0; k--)
        {
            final int parent = random.nextInt(4) == 0 && b.tree().size() > 1 ? b.tree().size() - 1 : root;
            final long at = ts + random.nextInt(120_000);
            final int micros = random.nextInt(1_500_000);
            final String status = pick(random, STATUSES);
            switch (random.nextInt(8))
            {
                case 0 -> {
                    final int sql = b.tx(parent, "SQL", pick(random, STATEMENTS), status, at, micros,
                        "select  *\n from t where id = " + random.nextInt(3));
                    children(random, b, sql, at, "SQL.Database", URLS, "SQL.Method", SQL_METHODS);
                }
                case 1 -> {
                    final int cache = b.tx(parent, pick(random, CACHES), pick(random, CACHE_NAMES), status, at,
                        micros, "");
                    children(random, b, cache, at, b.tree().type(cache) + ".server", SERVERS, "Cache.x", PORTS);
                }
                case 2 -> {
                    final String type = random.nextBoolean() ? "Call" : "PigeonCall";
                    final int call = b.tx(parent, type, pick(random, NAMES), status, at, micros, "");
                    children(random, b, call, at, type + ".server", SERVERS, type + ".app", APPS);
                    if (random.nextBoolean())
                    {
                        b.event(call, type + ".port", pick(random, PORTS), "0", at, "");
                    }
                }
                case 3 -> {
                    final String type = random.nextBoolean() ? "Service" : "PigeonService";
                    final int service = b.tx(parent, type, pick(random, NAMES), status, at, micros, "");
                    children(random, b, service, at, type + ".client", SERVERS, type + ".app", APPS);
                }
                case 4 -> b.event(parent, pick(random, ERRORS), pick(random, NAMES), "ERROR", at, "");
                case 5 -> b.metric(parent, pick(random, NAMES), pick(random, METRIC_STATUSES), at,
                    pick(random, METRIC_DATA));
                default -> b.tx(parent, pick(random, ROOTS), pick(random, NAMES), status, at, micros, "");
            }
        }
        return b;
    }

    /** Adds up to two of each child event (the last one counts), or none. */
    private static void children(final Random random, final TreeBuilder b, final int parent, final long at,
        final String firstType, final String[] firstNames, final String secondType, final String[] secondNames)
    {
        for (int k = random.nextInt(3); k > 0; k--)
        {
            b.event(parent, firstType, pick(random, firstNames), "0", at, "");
        }
        for (int k = random.nextInt(3); k > 0; k--)
        {
            b.event(parent, secondType, pick(random, secondNames), "0", at, "");
        }
    }

    private static void attachSymbols(final FlatTree tree, final SharedSymbols symbols)
    {
        tree.setHeaderSymbols(symbols.intern(tree.domain()), symbols.intern(tree.ip()));
        for (int i = 0; i < tree.size(); i++)
        {
            tree.setSymbols(i, symbols.intern(tree.type(i)), symbols.intern(tree.name(i)));
        }
    }

    private static Map<String, Long> losses(final Analyzer analyzer)
    {
        final Map<String, Long> out = new TreeMap<>();
        analyzer.losses(out::put);
        return out;
    }

    private static String pick(final Random random, final String[] from)
    {
        return from[random.nextInt(from.length)];
    }
}
