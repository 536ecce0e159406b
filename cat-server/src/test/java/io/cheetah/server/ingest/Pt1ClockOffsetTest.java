package io.cheetah.server.ingest;

import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.dispatch.TreePool;
import io.cheetah.server.metrics.IngestCounters;
import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.Pt1Zones;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.message.FlatTree;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;

import static io.cheetah.server.period.HourWindow.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-connection inference of a PT1 client's whole-hour clock offset (docs/protocol.md §1.4): trees are encoded
 * as a client in some zone writes them and decoded as the server does (GMT+8, and a zone of its own for the domain
 * {@code berlin-app}), then judged against an injected clock.
 */
class Pt1ClockOffsetTest
{
    /** 2026-11-22 03:30 UTC: the current hour is 03:00, the previous one is closed. */
    private static final long NOW = 1_795_318_200_000L;
    private static final long MIN = 60_000L;
    private static final ZoneId UTC = ZoneOffset.UTC;
    private static final ZoneId GMT8 = ZoneOffset.ofHours(8);

    private final ManualClock clock = new ManualClock(NOW);
    private final TreeDecoder decoder = new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(),
        new Pt1Zones(GMT8, Map.of("berlin-app", ZoneId.of("Europe/Berlin"))));
    private final FlatTree tree = new FlatTree();
    private final Pt1ClockOffset connection = new Pt1ClockOffset();

    @Test
    void aClientWritingUtcIsReadEightHoursLaterFromItsThirdTreeOn() throws Exception
    {
        for (int i = 0; i < Pt1ClockOffset.TREES_TO_ADOPT - 1; i++)
        {
            final long at = NOW - 10_000 + i;
            assertThat(send(Trees.pt1Frame("py", at, UTC))).isFalse();
            // judged before the decision: left as it is, so the dispatcher counts it too late as before
            assertThat(tree.rootTimestamp()).isEqualTo(at - 8 * HOUR);
            assertThat(HourWindow.classify(HourWindow.hourOf(tree.rootTimestamp()), NOW))
                .isEqualTo(HourWindow.TOO_LATE);
        }
        assertThat(send(Trees.pt1Frame("py", NOW - 5000, UTC))).isTrue();
        assertThat(connection.offsetHours()).isEqualTo(-8);
        assertThat(tree.rootTimestamp()).isEqualTo(NOW - 5000);
        for (int i = 0; i < 5; i++)
        {
            clock.set(NOW + i * 7 * MIN);
            assertThat(send(Trees.pt1Frame("py", NOW + i * 7 * MIN - 300, UTC))).isFalse();
            assertThat(tree.rootTimestamp()).isEqualTo(NOW + i * 7 * MIN - 300);
            assertThat(tree.timestamp(1)).as("every message moves").isEqualTo(tree.rootTimestamp());
        }
        assertThat(connection.offsetHours()).isEqualTo(-8);
    }

    @Test
    void wholeHourOffsetsEitherWayAreAdopted() throws Exception
    {
        // a client east of GMT+8 writes the future (too early), one west of it the past (too late)
        for (final int zoneHours : new int[] {-12, -5, 0, 6, 10, 14})
        {
            final Pt1ClockOffset c = new Pt1ClockOffset();
            for (int i = 1; i <= Pt1ClockOffset.TREES_TO_ADOPT; i++)
            {
                final boolean adopted = send(c, Trees.pt1Frame("py", NOW - 1000, ZoneOffset.ofHours(zoneHours)));
                assertThat(adopted).as("UTC%+d, tree %d", zoneHours, i).isEqualTo(i == Pt1ClockOffset.TREES_TO_ADOPT);
            }
            assertThat(c.offsetHours()).isEqualTo(zoneHours - 8);
            assertThat(tree.rootTimestamp()).isEqualTo(NOW - 1000);
        }
    }

    @Test
    void aFewMinutesEitherSideOfTheWholeHourStillCount() throws Exception
    {
        // trees that started minutes ago, and a client clock running a little fast
        send(Trees.pt1Frame("py", NOW - 4 * MIN, UTC));
        send(Trees.pt1Frame("py", NOW + 5 * MIN, UTC));
        assertThat(send(Trees.pt1Frame("py", NOW - 5 * MIN, UTC))).isTrue();
        assertThat(connection.offsetHours()).isEqualTo(-8);
        assertThat(tree.rootTimestamp()).isEqualTo(NOW - 5 * MIN);

        assertThat(Pt1ClockOffset.wholeHours(-8 * HOUR)).isEqualTo(-8);
        assertThat(Pt1ClockOffset.wholeHours(-8 * HOUR + Pt1ClockOffset.TOLERANCE_MILLIS)).isEqualTo(-8);
        assertThat(Pt1ClockOffset.wholeHours(-8 * HOUR - Pt1ClockOffset.TOLERANCE_MILLIS)).isEqualTo(-8);
        assertThat(Pt1ClockOffset.wholeHours(3 * HOUR - Pt1ClockOffset.TOLERANCE_MILLIS)).isEqualTo(3);
        assertThat(Pt1ClockOffset.wholeHours(-8 * HOUR + Pt1ClockOffset.TOLERANCE_MILLIS + 1)).isZero();
        assertThat(Pt1ClockOffset.wholeHours(3 * HOUR + Pt1ClockOffset.TOLERANCE_MILLIS + 1)).isZero();
        assertThat(Pt1ClockOffset.wholeHours(-Pt1ClockOffset.MAX_HOURS * HOUR)).isEqualTo(-Pt1ClockOffset.MAX_HOURS);
        assertThat(Pt1ClockOffset.wholeHours(-(Pt1ClockOffset.MAX_HOURS + 1) * HOUR)).isZero();
    }

    @Test
    void aSkewThatIsNotAWholeNumberOfHoursIsNeverAdopted() throws Exception
    {
        // six minutes past the tolerance, a half-hour zone, and a clock that is simply wrong
        final long[] skews = {-8 * HOUR + 6 * MIN, -8 * HOUR - 6 * MIN, -2 * HOUR - 30 * MIN, -3 * HOUR - 17 * MIN};
        for (final long skew : skews)
        {
            final Pt1ClockOffset c = new Pt1ClockOffset();
            for (int i = 0; i < 10; i++)
            {
                assertThat(send(c, Trees.pt1Frame("py", NOW + skew, GMT8))).isFalse();
                assertThat(tree.rootTimestamp()).isEqualTo(NOW + skew);
            }
            assertThat(c.offsetHours()).isZero();
        }
        final Pt1ClockOffset india = new Pt1ClockOffset();
        for (int i = 0; i < 10; i++)
        {
            assertThat(send(india, Trees.pt1Frame("py", NOW, ZoneId.of("Asia/Kolkata")))).isFalse();
        }
        assertThat(india.offsetHours()).isZero();
    }

    @Test
    void theOffsetMustHoldForEnoughTreesInARow() throws Exception
    {
        send(Trees.pt1Frame("py", NOW, UTC));
        send(Trees.pt1Frame("py", NOW, UTC));
        send(Trees.pt1Frame("py", NOW, ZoneOffset.ofHours(1)));
        send(Trees.pt1Frame("py", NOW, UTC));
        send(Trees.pt1Frame("py", NOW, UTC));
        // a tree in an open hour breaks the run too
        send(Trees.pt1Frame("py", NOW, GMT8));
        send(Trees.pt1Frame("py", NOW, UTC));
        send(Trees.pt1Frame("py", NOW, UTC));
        assertThat(connection.offsetHours()).isZero();
        assertThat(tree.rootTimestamp()).isEqualTo(NOW - 8 * HOUR);
        assertThat(send(Trees.pt1Frame("py", NOW, UTC))).isTrue();
        assertThat(connection.offsetHours()).isEqualTo(-8);
    }

    @Test
    void treesInAnOpenHourAreLeftAlone() throws Exception
    {
        for (int i = 0; i < 10; i++)
        {
            assertThat(send(Trees.pt1Frame("java", NOW - i * MIN, GMT8))).isFalse();
            assertThat(tree.rootTimestamp()).isEqualTo(NOW - i * MIN);
        }
        // two minutes into an hour the previous one is still open: an hour behind is not off yet
        final long h = HourWindow.hourOf(NOW) + 2 * MIN;
        clock.set(h);
        for (int i = 0; i < 5; i++)
        {
            assertThat(send(Trees.pt1Frame("py", h, ZoneOffset.ofHours(7)))).isFalse();
            assertThat(tree.rootTimestamp()).isEqualTo(h - HOUR);
        }
        assertThat(connection.offsetHours()).isZero();
    }

    @Test
    void nt1TreesAreNeitherJudgedNorMoved() throws Exception
    {
        for (int i = 0; i < 5; i++)
        {
            assertThat(send(Trees.frame("py", NOW - 8 * HOUR))).isFalse();
        }
        assertThat(connection.offsetHours()).isZero();
        // NT1 between PT1 trees neither counts for nor breaks their run
        send(Trees.pt1Frame("py", NOW, UTC));
        send(Trees.frame("py", NOW));
        send(Trees.pt1Frame("py", NOW, UTC));
        send(Trees.frame("py", NOW));
        assertThat(send(Trees.pt1Frame("py", NOW, UTC))).isTrue();
        assertThat(connection.offsetHours()).isEqualTo(-8);
        // once adopted, NT1 trees (epoch milliseconds) still go through untouched, wherever they point
        assertThat(send(Trees.frame("py", NOW))).isFalse();
        assertThat(tree.codec()).isEqualTo(FlatTree.CODEC_NT1);
        assertThat(tree.rootTimestamp()).isEqualTo(NOW);
        assertThat(send(Trees.frame("py", NOW - 8 * HOUR))).isFalse();
        assertThat(tree.rootTimestamp()).isEqualTo(NOW - 8 * HOUR);
    }

    @Test
    void aDomainWithItsOwnZoneIsReadInItAndNeverInferred() throws Exception
    {
        // Berlin is UTC+1 in November: read in its own zone, the tree is where it should be
        assertThat(send(Trees.pt1Frame("berlin-app", NOW, ZoneId.of("Europe/Berlin")))).isFalse();
        assertThat(decoder.pt1DomainZone()).isTrue();
        assertThat(tree.rootTimestamp()).isEqualTo(NOW);
        // the override wins even when it is wrong: a berlin-app host writing UTC is not second-guessed
        for (int i = 0; i < 5; i++)
        {
            assertThat(send(Trees.pt1Frame("berlin-app", NOW, UTC))).isFalse();
            assertThat(tree.rootTimestamp()).isEqualTo(NOW - HOUR);
        }
        assertThat(connection.offsetHours()).isZero();
        // nor is it moved by an offset the connection adopted from another domain's trees
        for (int i = 0; i < Pt1ClockOffset.TREES_TO_ADOPT; i++)
        {
            send(Trees.pt1Frame("py", NOW, UTC));
        }
        assertThat(connection.offsetHours()).isEqualTo(-8);
        assertThat(send(Trees.pt1Frame("berlin-app", NOW, ZoneId.of("Europe/Berlin")))).isFalse();
        assertThat(tree.rootTimestamp()).isEqualTo(NOW);
        send(Trees.pt1Frame("py", NOW, UTC));
        assertThat(decoder.pt1DomainZone()).isFalse();
        assertThat(tree.rootTimestamp()).isEqualTo(NOW);
    }

    @Test
    void aLaterChangeOfTheClientsOffsetIsFollowed() throws Exception
    {
        for (int i = 0; i < Pt1ClockOffset.TREES_TO_ADOPT; i++)
        {
            send(Trees.pt1Frame("py", NOW, UTC));
        }
        assertThat(connection.offsetHours()).isEqualTo(-8);
        // the host moves to daylight-saving time: read with the old offset its trees are an hour early
        for (int i = 1; i < Pt1ClockOffset.TREES_TO_ADOPT; i++)
        {
            assertThat(send(Trees.pt1Frame("py", NOW, ZoneOffset.ofHours(1)))).isFalse();
            assertThat(tree.rootTimestamp()).isEqualTo(NOW + HOUR);
        }
        assertThat(send(Trees.pt1Frame("py", NOW, ZoneOffset.ofHours(1)))).isTrue();
        assertThat(connection.offsetHours()).isEqualTo(-7);
        assertThat(tree.rootTimestamp()).isEqualTo(NOW);
    }

    @Test
    void theTreesOfARunAreHeldUntilItDecidesAndABrokenRunLetsThemGo() throws Exception
    {
        final TreePool pool = new TreePool(4, new IngestCounters());
        final PooledTree first = pool.acquire();
        final PooledTree second = pool.acquire();
        assertThat(send(Trees.pt1Frame("py", NOW - 10_000, UTC))).isFalse();
        assertThat(connection.pending()).isTrue();
        assertThat(connection.runStarted()).isTrue();
        connection.hold(first);
        assertThat(send(Trees.pt1Frame("py", NOW - 9_000, UTC))).isFalse();
        assertThat(connection.pending()).isTrue();
        assertThat(connection.runStarted()).as("the same run goes on").isFalse();
        connection.hold(second);
        assertThat(connection.heldCount()).isEqualTo(Pt1ClockOffset.TREES_TO_ADOPT - 1);
        // a tree of the current hour breaks the run: nothing pending, the held trees go on oldest first
        assertThat(send(Trees.pt1Frame("py", NOW, GMT8))).isFalse();
        assertThat(connection.pending()).isFalse();
        assertThat(connection.takeHeld()).isSameAs(first);
        assertThat(connection.takeHeld()).isSameAs(second);
        assertThat(connection.takeHeld()).isNull();
        assertThat(connection.heldCount()).isZero();
        // an NT1 tree is never pending, and the tree that adopts is not either
        for (int i = 1; i <= Pt1ClockOffset.TREES_TO_ADOPT; i++)
        {
            assertThat(send(Trees.pt1Frame("py", NOW - 1000, UTC))).isEqualTo(i == Pt1ClockOffset.TREES_TO_ADOPT);
            assertThat(connection.pending()).isEqualTo(i < Pt1ClockOffset.TREES_TO_ADOPT);
        }
    }

    private boolean send(final byte[] frame) throws Exception
    {
        return send(connection, frame);
    }

    private boolean send(final Pt1ClockOffset c, final byte[] frame) throws Exception
    {
        decoder.decodeFrame(frame, 0, frame.length, tree);
        return c.correct(tree, decoder.pt1DomainZone(), clock);
    }
}
