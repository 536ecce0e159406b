package io.cheetah.analysis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TreeRulesTest
{
    private final TreeRules rules = new TreeRules();

    @Test
    void numericSegmentsBecomeNum()
    {
        assertThat(rules.normaliseUrl("/shop/123/item").toString()).isEqualTo("/shop/{num}/item");
        assertThat(rules.normaliseUrl("/a/1.5,2-3/").toString()).isEqualTo("/a/{num}/");
        assertThat(rules.normaliseUrl("/v1/x12")).isEqualTo("/v1/x12");
        assertThat(rules.normaliseUrl("123").toString()).isEqualTo("{num}");
    }

    @Test
    void truncatedRootAndTotalDuration()
    {
        final TreeBuilder b = new TreeBuilder("d", "1.1.1.1", "d-01010101-1-1");
        final int root = b.tx(-1, "URL", "/x", "0", TreeBuilder.HOUR, 5_000, "");
        b.event(root, "RemoteCall", "Next", "0", TreeBuilder.HOUR, "d-01010101-1-2");
        assertThat(TreeRules.isTruncatedRoot(b.tree())).isTrue();
        assertThat(TreeRules.truncatedTotalMicros(b.tree())).isEqualTo(-1);
        final TreeBuilder c = new TreeBuilder("d", "1.1.1.1", "d-01010101-1-1");
        final int r = c.tx(-1, "URL", "/x", "0", TreeBuilder.HOUR, 5_000, "");
        c.event(r, "TruncatedTransaction", "TotalDuration", "0", TreeBuilder.HOUR, "7500000");
        assertThat(TreeRules.isTruncatedRoot(c.tree())).isFalse();
        assertThat(TreeRules.truncatedTotalMicros(c.tree())).isEqualTo(7_500_000);
    }

    @Test
    void discardList()
    {
        assertThat(TreeRules.discardTransaction("Cache.web", "x")).isTrue();
        assertThat(TreeRules.discardTransaction("URL", "/")).isTrue();
        assertThat(TreeRules.discardTransaction("Service", "")).isTrue();
        assertThat(TreeRules.discardTransaction("URL", "/index.jsp")).isTrue();
        assertThat(TreeRules.discardTransaction("URL", "/api")).isFalse();
        assertThat(TreeRules.discardTransaction("SQL", "/")).isFalse();
    }
}
