package io.cheetah.server.dispatch;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class StallGraceTest
{
    private final AtomicLong now = new AtomicLong(1_000);
    private final StallGrace grace = new StallGrace(1_000, now::get);

    @Test
    void nothingIsExcusedUntilAConsumerStalls()
    {
        assertThat(grace.excused(now.get())).isFalse();
        assertThat(grace.excused(now.get() + 1_000_000)).isFalse();
    }

    @Test
    void aStallIsExcusedWhileItLastsAndItsCatchUpForAsLongAgain()
    {
        final long began = grace.begin();
        assertThat(grace.excused(now.get() + 1_000_000)).as("however long it lasts").isTrue();
        now.addAndGet(300);
        grace.end(began);
        assertThat(grace.excused(1_599)).as("the catch-up").isTrue();
        assertThat(grace.excused(1_600)).as("as long as the stall, no longer").isFalse();
    }

    @Test
    void theGateTakesThePauseAndItsCatchUpForTheServersOwnUntilAHighWaitTimesOut()
    {
        assertThat(grace.ownPause()).isFalse();
        long began = grace.begin();
        assertThat(grace.ownPause()).as("while the consumer is stopped").isTrue();
        now.addAndGet(300);
        grace.end(began);
        now.set(1_599);
        assertThat(grace.ownPause()).as("the catch-up").isTrue();
        now.set(1_600);
        assertThat(grace.ownPause()).as("as long as the stall, no longer").isFalse();
        assertThat(grace.ownPause()).isFalse();

        began = grace.begin();
        grace.highWaitExpired();
        assertThat(grace.ownPause()).as("a HIGH tree lost: MID and LOW are judged by fill again").isFalse();
        now.addAndGet(100);
        grace.end(began);
        assertThat(grace.ownPause()).as("for the catch-up too").isFalse();
        now.addAndGet(1_000);
        grace.begin();
        assertThat(grace.ownPause()).as("until the next pause").isTrue();
    }

    @Test
    void aHighWaitThatTimesOutOutsideAPauseChangesNothing()
    {
        grace.highWaitExpired();
        final long began = grace.begin();
        assertThat(grace.ownPause()).isTrue();
        grace.end(began);
    }

    @Test
    void aLongStallsCatchUpIsExcusedOnlyUpToTheMaximum()
    {
        final long began = grace.begin();
        now.addAndGet(5_000);
        grace.end(began);
        assertThat(grace.excused(6_999)).isTrue();
        assertThat(grace.excused(7_000)).isFalse();
    }

    @Test
    void overlappingStallsAreExcusedUntilTheLastEndsAndAShortOneNeverShortensALongerCatchUp()
    {
        final long a = grace.begin();
        now.addAndGet(100);
        final long b = grace.begin();
        now.addAndGet(500);
        grace.end(a); // stalled 600: catch-up until 2,200
        assertThat(grace.excused(1_000_000)).as("b still stalls").isTrue();
        now.addAndGet(10);
        grace.end(b); // stalled 510: would end at 2,120
        assertThat(grace.excused(2_199)).isTrue();
        assertThat(grace.excused(2_200)).isFalse();
    }

    @Test
    void pausesAreCountedWithTheirTotalAndLongestDuration()
    {
        final long a = grace.begin();
        now.addAndGet(100);
        final long b = grace.begin();
        now.addAndGet(500);
        grace.end(a);
        now.addAndGet(10);
        grace.end(b);
        final long c = grace.begin();
        now.addAndGet(40);
        grace.end(c);
        assertThat(grace.pauses()).isEqualTo(3);
        assertThat(grace.pauseNanos()).isEqualTo(600 + 510 + 40);
        assertThat(grace.longestPauseNanos()).isEqualTo(600);
    }
}
