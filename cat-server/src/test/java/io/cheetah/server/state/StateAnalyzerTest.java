package io.cheetah.server.state;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.server.fixtures.Trees;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How the State analyzer finds a tree's domain: by the ingest's shared symbol or by name, within the domain cap. */
class StateAnalyzerTest
{
    private static final long H = 1_763_780_400_000L;
    private static final String SERVER = "10.9.9.9";

    private final StateAnalyzer analyzer = new StateAnalyzer(new AnalyzerContext(0, 1,
        new ReportLimits(2, 10, 10, 10, 10, 64)), null, SERVER);
    private final FlatTree tree = new FlatTree();

    private void send(final String domain, final int symbol, final String ip, final int minute)
    {
        Trees.url(tree, domain, H + minute * 60_000L + 1);
        tree.setHeader(FlatTree.CODEC_NT1, domain, "host", ip, "", "1", "main", "", "", "");
        tree.setHeaderSymbols(symbol, -1);
        tree.frameBuffer(10);
        analyzer.process(tree, H);
    }

    private Map<String, StateReport.DomainFigures> domains()
    {
        return ((StateReport)analyzer.snapshot(H, StateReport.DOMAIN)).machines().get(SERVER).domains();
    }

    @Test
    void treesOfADomainCountTogetherWhetherTheyCameWithItsSymbolOrWithout()
    {
        send("shop", -1, "10.0.0.1", 1);
        send("shop", 7, "10.0.0.2", 1);
        send("shop", 7, "10.0.0.1", 2);
        send("pay", 8, "10.0.1.1", 2);
        final StateReport.DomainFigures shop = domains().get("shop");
        assertThat(shop.minutes().trees()[1]).isEqualTo(2);
        assertThat(shop.minutes().trees()[2]).isEqualTo(1);
        assertThat(shop.ips()).containsExactlyInAnyOrder("10.0.0.1", "10.0.0.2");
        assertThat(domains().get("pay").minutes().trees()[2]).isEqualTo(1);
    }

    @Test
    void aDomainPastTheCapCountsUnderOthersEachTimeItsSymbolComes()
    {
        send("a", 1, "10.0.0.1", 0);
        send("b", 2, "10.0.0.1", 0);
        send("c", 3, "10.0.0.1", 0);
        send("c", 3, "10.0.0.1", 0);
        send("a", 1, "10.0.0.1", 0);
        assertThat(domains()).containsOnlyKeys("a", "b", "OTHERS");
        assertThat(domains().get("OTHERS").minutes().trees()[0]).isEqualTo(2);
        assertThat(domains().get("a").minutes().trees()[0]).isEqualTo(2);
    }
}
