package io.cheetah.report;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.analysis.TreeBuilder;
import io.cheetah.analysis.event.EventAnalyzer;
import io.cheetah.analysis.transaction.TransactionAnalyzer;
import io.cheetah.codec.SharedSymbols;
import io.cheetah.message.FlatTree;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static io.cheetah.analysis.TreeBuilder.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The symbol-pair shortcuts must change nothing but speed: the same trees, with and without the ingest's shared
 * symbols, give the same reports and the same fold counts, whatever the caps fold, clean, normalise or discard.
 */
class TallyShortcutsTest
{
    private static final String[] TYPES = {"URL", "SQL", "Cache.redis", "Call", "OTHERS", "Cache.web", "Service",
        "Type\twith\ncontrol", "T".repeat(40)};
    private static final String[] NAMES = {"/shop/123/item", "/shop/456/item", "/index.jsp", "/", "", "select a",
        "OTHERS", "/api/v1/orders/{id}/list", "N".repeat(60), "name\u0001odd", "/x/1,5/y", "GET"};
    private static final String[] STATUSES = {"0", "0", "0", "Timeout", "NullPointerException"};

    @Property(tries = 60)
    void reportsAndFoldsAreTheSameWithAndWithoutSymbols(@ForAll("seeds") final long seed,
        @ForAll @IntRange(min = 1, max = 6) final int typeCap, @ForAll @IntRange(min = 1, max = 8) final int nameCap)
    {
        final ReportLimits limits = new ReportLimits(10, 3, typeCap, nameCap, 3, 16);
        for (final Function<AnalyzerContext, Analyzer> kind : List.<Function<AnalyzerContext, Analyzer>>of(
            TransactionAnalyzer::new, EventAnalyzer::new))
        {
            final Analyzer plain = kind.apply(new AnalyzerContext(0, 1, limits));
            final Analyzer symbolic = kind.apply(new AnalyzerContext(0, 1, limits));
            final SharedSymbols symbols = new SharedSymbols(1 << 10);
            final Random random = new Random(seed);
            for (int t = 0; t < 300; t++)
            {
                final TreeBuilder b = tree(random, t);
                plain.process(b.tree(), HOUR);
                attachSymbols(b.tree(), symbols);
                symbolic.process(b.tree(), HOUR);
            }
            for (final String domain : plain.domains(HOUR))
            {
                assertThat(ReportDump.dump((DomainReport)symbolic.snapshot(HOUR, domain)))
                    .isEqualTo(ReportDump.dump((DomainReport)plain.snapshot(HOUR, domain)));
            }
            assertThat(symbolic.domains(HOUR)).isEqualTo(plain.domains(HOUR));
            assertThat(counts(folds(symbolic))).containsExactly(counts(folds(plain)));
        }
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<Long> seeds()
    {
        return net.jqwik.api.Arbitraries.longs();
    }

    @Test
    void aMessageWithoutSymbolsTakesTheStringPathAndIsRememberedByNoOne()
    {
        final OneMachine one = OneMachine.create();
        final DomainReport report = one.report();
        final FoldCounters folds = one.folds();
        final MachineTally m = one.machine();
        final TallyShortcuts s = m.shortcuts();
        assertThat(TallyShortcuts.key(FlatTree.NO_SYMBOLS, false)).isEqualTo(TallyShortcuts.NO_KEY);
        final int a = s.learn(TallyShortcuts.NO_KEY, report, m, "SQL", "select", 10, 10, 1, folds);
        assertThat(a).isEqualTo(TallyShortcuts.UNREMEMBERED);
        final Tally select = s.name(a);
        assertThat(select).isSameAs(m.types().get(report.symbols().find("SQL")).names()
            .get(report.symbols().find("select")));
        assertThat(s.type(a)).isSameAs(m.types().get(report.symbols().find("SQL")));
        assertThat(s.size()).isZero();
        final long key = TallyShortcuts.key(((long)3 << 32) | 7, false);
        assertThat(TallyShortcuts.key(((long)3 << 32) | 7, true)).isNotEqualTo(key);
        assertThat(s.find(key, 1, folds)).isEqualTo(TallyShortcuts.UNKNOWN);
        s.learn(key, report, m, "SQL", "select", 10, 10, 1, folds);
        assertThat(s.name(s.find(key, 1, folds))).isSameAs(select);
        assertThat(s.size()).isEqualTo(1);
    }

    @Test
    void everyLearnedPairIsFoundAgainThroughGrowthAndPairsSharingATallyKeepTheirOwnFolds()
    {
        final OneMachine one = OneMachine.create();
        final DomainReport report = one.report();
        final FoldCounters folds = one.folds();
        final MachineTally m = one.machine();
        final TallyShortcuts s = m.shortcuts();
        final Tally[] learned = new Tally[3_000];
        for (int i = 0; i < learned.length; i++)
        {
            learned[i] = s.name(s.learn(TallyShortcuts.key(((long)(i % 3) << 32) | i, false), report, m,
                "T" + i % 3, "n" + i, 10, 10_000, 1, folds));
        }
        // a second pair for the same strings (the variant key) counts into the same tally
        final long variant = TallyShortcuts.key(7, true);
        assertThat(s.name(s.learn(variant, report, m, "T0", "n0", 10, 10_000, 1, folds))).isSameAs(learned[0]);
        for (int i = 0; i < learned.length; i++)
        {
            final int found = s.find(TallyShortcuts.key(((long)(i % 3) << 32) | i, false), 1, folds);
            assertThat(s.name(found)).isSameAs(learned[i]);
            assertThat(s.type(found)).isSameAs(m.types().get(report.symbols().find("T" + i % 3)));
        }
        assertThat(s.name(s.find(variant, 1, folds))).isSameAs(learned[0]);
        assertThat(s.find(TallyShortcuts.key(((long)5 << 32) | 5, false), 1, folds))
            .isEqualTo(TallyShortcuts.UNKNOWN);
        assertThat(s.size()).isEqualTo(learned.length + 1);
        assertThat(folds.namesFolded()).isZero();

        // past a type's name cap, a new pair lands in OTHERS and every later hit counts as a fold again
        final long folded = TallyShortcuts.key(((long)1 << 32) | 99_999, false);
        final Tally others = s.name(s.learn(folded, report, m, "T1", "brand-new", 10, 1_000, 1, folds));
        assertThat(others).isSameAs(m.types().get(report.symbols().find("T1")).names()
            .get(report.othersSymbol()));
        assertThat(folds.namesFolded()).isEqualTo(1);
        assertThat(s.name(s.find(folded, 4, folds))).isSameAs(others);
        assertThat(folds.namesFolded()).isEqualTo(5);
        assertThat(folds.typesFolded()).isZero();
    }

    @Test
    void aPrefetchOnlyReadsItCountsNoFoldLearnsNoPairAndChangesNoTally()
    {
        final OneMachine one = OneMachine.create();
        final DomainReport report = one.report();
        final FoldCounters folds = one.folds();
        final MachineTally m = one.machine();
        final TallyShortcuts s = m.shortcuts();
        final long known = TallyShortcuts.key(((long)1 << 32) | 2, false);
        final Tally n = s.name(s.learn(known, report, m, "T", "n", 10, 1, 1, folds));
        n.recordDuration(3, 40, false);
        // past the name cap of 1: this pair folds into OTHERS, so a find counts a fold and a prefetch must not
        final long folded = TallyShortcuts.key(((long)1 << 32) | 3, false);
        s.learn(folded, report, m, "T", "other", 10, 1, 1, folds);
        final long foldsBefore = folds.namesFolded();
        final int sizeBefore = s.size();

        for (final long key : new long[] {known, folded, TallyShortcuts.key(((long)9 << 32) | 9, false),
            TallyShortcuts.NO_KEY})
        {
            s.prefetch(key);
        }

        assertThat(folds.namesFolded()).isEqualTo(foldsBefore);
        assertThat(s.size()).isEqualTo(sizeBefore);
        assertThat(s.find(TallyShortcuts.key(((long)9 << 32) | 9, false), 1, folds))
            .isEqualTo(TallyShortcuts.UNKNOWN);
        assertThat(s.name(s.find(known, 1, folds))).isSameAs(n);
        assertThat(n.totalCount).isEqualTo(1);
        assertThat(n.sum).isEqualTo(40);
    }

    @Test
    void theFoldFlagsKeptBesideAKeyNeverMakeItMatchAnotherAndSymbolsTooLargeForAKeyTakeTheStringPath()
    {
        final OneMachine one = OneMachine.create();
        final DomainReport report = one.report();
        final FoldCounters folds = one.folds();
        final MachineTally m = one.machine();
        final TallyShortcuts s = m.shortcuts();
        // type cap 1: a second type folds into OTHERS, and so does each of its names (their pair carries the flag)
        s.learn(TallyShortcuts.key(((long)1 << 32) | 1, false), report, m, "A", "a", 1, 10, 1, folds);
        final long foldedKey = TallyShortcuts.key(((long)2 << 32) | 1, false);
        final int folded = s.learn(foldedKey, report, m, "B", "a", 1, 10, 1, folds);
        assertThat(s.type(folded)).isSameAs(m.types().get(report.othersSymbol()));
        final long typesBefore = folds.typesFolded();
        s.find(foldedKey, 3, folds);
        assertThat(folds.typesFolded()).isEqualTo(typesBefore + 3);
        // the same pair without the fold is a different key, unknown until learned
        assertThat(s.find(TallyShortcuts.key(((long)2 << 32) | 2, false), 1, folds))
            .isEqualTo(TallyShortcuts.UNKNOWN);
        assertThat(TallyShortcuts.key(((long)TallyShortcuts.MAX_SYMBOL << 32) | TallyShortcuts.MAX_SYMBOL, true))
            .isNotEqualTo(TallyShortcuts.NO_KEY);
        assertThat(TallyShortcuts.key((long)(TallyShortcuts.MAX_SYMBOL + 1) << 32, false))
            .isEqualTo(TallyShortcuts.NO_KEY);
        assertThat(TallyShortcuts.key(TallyShortcuts.MAX_SYMBOL + 1L, false)).isEqualTo(TallyShortcuts.NO_KEY);
    }

    @Test
    void pastTheBoundANewPairIsCountedThroughTheStringPathButNotRemembered()
    {
        final OneMachine one = OneMachine.create();
        final MachineTally m = one.machine();
        final TallyShortcuts s = m.shortcuts();
        for (int i = 0; i < TallyShortcuts.MAX_SHORTCUTS; i++)
        {
            s.learn(TallyShortcuts.key(i, false), one.report(), m, "T", "n" + i, 10, 100_000, 1, one.folds());
        }
        assertThat(s.size()).isEqualTo(TallyShortcuts.MAX_SHORTCUTS);
        final long key = TallyShortcuts.key(TallyShortcuts.MAX_SHORTCUTS, false);
        final int last = s.learn(key, one.report(), m, "T", "beyond", 10, 100_000, 1, one.folds());
        assertThat(last).isEqualTo(TallyShortcuts.UNREMEMBERED);
        assertThat(s.name(last)).isSameAs(m.types().get(one.report().symbols().find("T")).names()
            .get(one.report().symbols().find("beyond")));
        assertThat(s.find(key, 1, one.folds())).isEqualTo(TallyShortcuts.UNKNOWN);
        assertThat(s.size()).isEqualTo(TallyShortcuts.MAX_SHORTCUTS);
        assertThat(s.name(s.find(TallyShortcuts.key(7, false), 1, one.folds()))).isSameAs(m.types()
            .get(one.report().symbols().find("T")).names().get(one.report().symbols().find("n7")));
    }

    /** One machine of a fresh Transaction report, and the fold counters it counts into. */
    private record OneMachine(DomainReport report, FoldCounters folds, MachineTally machine)
    {
        static OneMachine create()
        {
            final DomainReport report = new DomainReport("transaction", "d", HOUR, null, null);
            final FoldCounters folds = new FoldCounters();
            return new OneMachine(report, folds, report.machine("10.0.0.1", 10, 1, folds));
        }
    }

    private static TreeBuilder tree(final Random random, final int t)
    {
        final TreeBuilder b = new TreeBuilder("d" + random.nextInt(3), "10.0.0." + random.nextInt(5),
            "d-0a000001-498699-" + t);
        final long ts = HOUR + random.nextInt(60) * 60_000L;
        final int root = b.tx(-1, pick(random, TYPES), pick(random, NAMES), pick(random, STATUSES), ts,
            random.nextInt(2_000_000), random.nextInt(20) == 0 ? "@3;1;30" : "");
        for (int k = random.nextInt(6); k > 0; k--)
        {
            if (random.nextBoolean())
            {
                b.tx(root, pick(random, TYPES), pick(random, NAMES), pick(random, STATUSES), ts,
                    random.nextInt(500_000), "");
            }
            else
            {
                b.event(root, pick(random, TYPES), pick(random, NAMES), pick(random, STATUSES), ts,
                    random.nextInt(20) == 0 ? "@2=1,2" : "");
            }
        }
        return b;
    }

    private static void attachSymbols(final FlatTree tree, final SharedSymbols symbols)
    {
        for (int i = 0; i < tree.size(); i++)
        {
            tree.setSymbols(i, symbols.intern(tree.type(i)), symbols.intern(tree.name(i)));
        }
    }

    private static String pick(final Random random, final String[] from)
    {
        return from[random.nextInt(from.length)];
    }

    private static FoldCounters folds(final Analyzer a)
    {
        return a instanceof TransactionAnalyzer tx ? tx.folds() : ((EventAnalyzer)a).folds();
    }

    private static long[] counts(final FoldCounters f)
    {
        return new long[] {f.machinesFolded(), f.typesFolded(), f.namesFolded(), f.statusFolded(),
            f.domainsRefused(), f.stringsCleaned(), f.malformedBatch(), f.messagesSkipped()};
    }
}
