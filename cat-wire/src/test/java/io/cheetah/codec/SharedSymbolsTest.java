package io.cheetah.codec;

import io.cheetah.message.Event;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SharedSymbolsTest
{
    private static MessageTree tree(final String url)
    {
        return new MessageTree().domain("demo").hostname("host1").ipAddress("10.0.0.1")
            .threadGroupName("main").threadId("1").threadName("main").messageId("demo-0a000001-480000-0")
            .root(new TransactionMessage("URL", url, "0", "", 1728000000000L, 1500)
                .addChild(new Event("SQL.Method", "SELECT", "0", "", 1728000000001L))
                .addChild(new Event("Long", "n".repeat(Utf8Interner.MAX_CACHED_BYTES + 1), "0", "",
                    1728000000002L)));
    }

    @Test
    void twoDecodingThreadsGetTheSameSymbolsAndTheSameStringInstances() throws Exception
    {
        final SharedSymbols symbols = new SharedSymbols(64);
        final FlatTree a = new FlatTree();
        final FlatTree b = new FlatTree();
        final byte[] nt1 = Nt1Encoder.encode(tree("/a"));
        final byte[] pt1 = Pt1Encoder.encode(tree("/a"));
        new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(64, symbols)).decodeFrame(nt1, 0, nt1.length, a);
        new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(64, symbols)).decodeFrame(pt1, 0, pt1.length, b);

        // the trees name their table, so that a consumer holding only the symbols can read the strings later
        assertThat(a.symbolStrings()).isSameAs(symbols).isSameAs(b.symbolStrings());
        assertThat(a.symbolStrings().string(a.ipSymbol())).isSameAs(a.ip());
        for (int i = 0; i < 2; i++)
        {
            final long pair = a.symbolPair(i);
            assertThat(pair).isNotNegative().isEqualTo(b.symbolPair(i));
            assertThat(symbols.string((int)(pair >>> 32))).isSameAs(a.type(i)).isSameAs(b.type(i));
            assertThat(symbols.string((int)pair)).isSameAs(a.name(i)).isSameAs(b.name(i));
        }
        // a name too long to cache has no symbol: the analyzers take the string path
        assertThat(a.symbolPair(2)).isEqualTo(FlatTree.NO_SYMBOLS);
        assertThat(b.symbolPair(2)).isEqualTo(FlatTree.NO_SYMBOLS);
        // without shared symbols nothing is attached
        final FlatTree c = new FlatTree();
        new TreeDecoder().decodeFrame(nt1, 0, nt1.length, c);
        assertThat(c.symbolPair(0)).isEqualTo(FlatTree.NO_SYMBOLS);
        assertThat(c.symbolStrings()).isNull();
        final FlatTree copy = new FlatTree();
        copy.copyFrom(a);
        assertThat(copy.symbolStrings()).isSameAs(symbols);
    }

    @Test
    void everyCodecGivesTheHeadersDomainAndIpTheirSymbols() throws Exception
    {
        final SharedSymbols symbols = new SharedSymbols(64);
        final FrameWriter bag = new FrameWriter();
        Nm1Encoder.encode("NM1", "demo", "host1", "10.0.0.1", List.of(new Nm1Encoder.Entry(5, "m", "SUM", 1, 2, 0)),
            bag);
        for (final byte[] frame : List.of(Nt1Encoder.encode(tree("/a")), Pt1Encoder.encode(tree("/a")),
            bag.toByteArray()))
        {
            final FlatTree t = new FlatTree();
            new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(64, symbols)).decodeFrame(frame, 0, frame.length,
                t);
            assertThat(t.domainSymbol()).isNotNegative();
            assertThat(symbols.string(t.domainSymbol())).isSameAs(t.domain()).isEqualTo("demo");
            assertThat(symbols.string(t.ipSymbol())).isSameAs(t.ip()).isEqualTo("10.0.0.1");
            // a metric's empty type has a symbol too, so a bag's metric names are found by symbol
            assertThat(t.symbolPair(0)).isNotEqualTo(FlatTree.NO_SYMBOLS);
            assertThat(symbols.string(t.typeSymbol(0))).isEqualTo(t.type(0));
            assertThat(symbols.string(t.nameSymbol(0))).isSameAs(t.name(0));
            final FlatTree copy = new FlatTree();
            copy.copyFrom(t);
            assertThat(copy.domainSymbol()).isEqualTo(t.domainSymbol());
            assertThat(copy.ipSymbol()).isEqualTo(t.ipSymbol());
            // a header set by hand carries no symbols until told, and a reset tree none at all
            copy.setHeader(FlatTree.CODEC_NT1, "other", "h", "10.0.0.2", "", "", "", "", "", "");
            assertThat(copy.domainSymbol()).isEqualTo(FlatTree.NO_SYMBOL);
            t.reset();
            assertThat(t.ipSymbol()).isEqualTo(FlatTree.NO_SYMBOL);
        }
        // a null domain in a bag has none, and without shared symbols no tree has any
        final FrameWriter nulls = new FrameWriter();
        Nm1Encoder.encode("NM1", null, "h", null, List.of(new Nm1Encoder.Entry(5, "m", "SUM", 1, 2, 0)), nulls);
        final FlatTree n = new FlatTree();
        new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(64, symbols)).decodeFrame(nulls.toByteArray(), 0,
            nulls.toByteArray().length, n);
        assertThat(n.domainSymbol()).isEqualTo(FlatTree.NO_SYMBOL);
        assertThat(n.ipSymbol()).isEqualTo(FlatTree.NO_SYMBOL);
        final byte[] nt1 = Nt1Encoder.encode(tree("/a"));
        new TreeDecoder().decodeFrame(nt1, 0, nt1.length, n);
        assertThat(n.domainSymbol()).isEqualTo(FlatTree.NO_SYMBOL);
    }

    @Test
    void aFullTableRefusesNewStringsAndCountsThem() throws Exception
    {
        final SharedSymbols symbols = new SharedSymbols(3);
        assertThat(symbols.intern("a")).isZero();
        assertThat(symbols.intern("b")).isEqualTo(1);
        assertThat(symbols.intern("a")).isZero();
        assertThat(symbols.intern("c")).isEqualTo(2);
        assertThat(symbols.intern("d")).isEqualTo(SharedSymbols.NONE);
        assertThat(symbols.refused()).isEqualTo(1);
        assertThat(symbols.size()).isEqualTo(3);

        final FlatTree t = new FlatTree();
        final byte[] nt1 = Nt1Encoder.encode(tree("/fresh"));
        new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(64, symbols)).decodeFrame(nt1, 0, nt1.length, t);
        assertThat(t.symbolPair(0)).isEqualTo(FlatTree.NO_SYMBOLS);
        assertThat(t.name(0)).isEqualTo("/fresh");
        assertThatThrownBy(() -> new SharedSymbols(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRenamedMessageLosesItsSymbols()
    {
        final FlatTree t = new FlatTree();
        final int i = t.add(io.cheetah.message.MessageKind.TRANSACTION, FlatTree.NONE, "System", "UploadMetric-x", 1);
        t.setSymbols(i, 4, 5);
        assertThat(t.symbolPair(i)).isEqualTo((4L << 32) | 5);
        t.rename(i, "System", "UploadMetric");
        assertThat(t.symbolPair(i)).isEqualTo(FlatTree.NO_SYMBOLS);
    }
}
