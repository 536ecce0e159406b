package io.cheetah.logview.search;

import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The search's parameters: defaults, the accepted time forms, and a 400 reason naming each bad parameter.
 */
class SearchParametersTest
{
    private static final long NOW = 1_795_318_200_000L; // 2026-11-22 03:30 UTC
    private static final long HOUR = 1_795_316_400_000L;

    private static SearchQuery parse(final String... pairs)
    {
        final Map<String, String> m = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2)
        {
            m.put(pairs[i], pairs[i + 1]);
        }
        return SearchParameters.parse(m::get, m.keySet(), NOW, ZoneId.of("Asia/Shanghai"));
    }

    @Test
    void defaultsToTheCurrentHourAndFiftyTrees()
    {
        final SearchQuery q = parse("domain", "shop");
        assertThat(q.fromMs()).isEqualTo(HOUR);
        assertThat(q.toMs()).isEqualTo(HOUR + 3_600_000L);
        assertThat(q.limit()).isEqualTo(50);
        assertThat(q.hasMessageConditions()).isFalse();
        assertThat(q.cursor()).isNull();
    }

    @Test
    void takesEpochMillisInstantsOffsetsAndLocalTimesInTheServersZone()
    {
        assertThat(parse("domain", "d", "from", Long.toString(HOUR)).fromMs()).isEqualTo(HOUR);
        assertThat(parse("domain", "d", "from", "2026-11-22T03:00:00Z").fromMs()).isEqualTo(HOUR);
        assertThat(parse("domain", "d", "from", "2026-11-22T11:00:00+08:00").fromMs()).isEqualTo(HOUR);
        assertThat(parse("domain", "d", "from", "2026-11-22 11:00").fromMs()).isEqualTo(HOUR);
        final SearchQuery q = parse("domain", "d", "to", "2026-11-22T04:00:00Z");
        assertThat(q.toMs() - q.fromMs()).isEqualTo(3_600_000L);
    }

    @Test
    void aBadParameterIsRefusedNamingIt()
    {
        final String[][] cases = {
            {"domain: required"},
            {"from: not an ISO-8601", "domain", "d", "from", "yesterday"},
            {"to: must be after from", "domain", "d", "from", "2026-11-22T04:00:00Z", "to", "2026-11-22T03:00:00Z"},
            {"to: a query spans at most one day", "domain", "d", "from", "2026-11-20T00:00:00Z", "to",
                "2026-11-22T00:00:00Z"},
            {"minMs: not a whole number", "domain", "d", "minMs", "1.5"},
            {"maxMs: must not be below minMs", "domain", "d", "minMs", "10", "maxMs", "5"},
            {"limit: must be 1..1000", "domain", "d", "limit", "1001"},
            {"limit: not a number", "domain", "d", "limit", "all"},
            {"cursor: not a cursor", "domain", "d", "cursor", "!!"},
            {"cursor: not a cursor", "domain", "d", "cursor", "bm90IGEgY3Vyc29y"},
            {"nmae: unknown parameter", "domain", "d", "nmae", "x"},
            {"name: longer than 1024", "domain", "d", "name", "x".repeat(1025)},
        };
        for (final String[] c : cases)
        {
            final String[] pairs = java.util.Arrays.copyOfRange(c, 1, c.length);
            assertThatThrownBy(() -> parse(pairs)).as(c[0]).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(c[0]);
        }
    }
}
