package io.cheetah.server.period;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.cheetah.server.period.HourWindow.HOUR;
import static io.cheetah.server.period.HourWindow.OPEN;
import static io.cheetah.server.period.HourWindow.TOO_EARLY;
import static io.cheetah.server.period.HourWindow.TOO_LATE;
import static org.assertj.core.api.Assertions.assertThat;

class HourWindowTest
{
    private static final long H = 1_763_780_400_000L; // an epoch-aligned hour
    private static final long MIN = 60_000L;

    @Test
    void hoursAreEpochAlignedAndDecidedByTimestamp()
    {
        assertThat(H % HOUR).isZero();
        assertThat(HourWindow.hourOf(H)).isEqualTo(H);
        assertThat(HourWindow.hourOf(H + HOUR - 1)).isEqualTo(H);
        assertThat(HourWindow.hourOf(H - 1)).isEqualTo(H - HOUR);
        assertThat(HourWindow.hourOf(-1)).isEqualTo(-HOUR);
    }

    @Test
    void anHourIsOpenFromThreeMinutesBeforeToThreeMinutesAfter()
    {
        assertThat(HourWindow.classify(H, H - 3 * MIN - 1)).isEqualTo(TOO_EARLY);
        assertThat(HourWindow.classify(H, H - 3 * MIN)).isEqualTo(OPEN);
        assertThat(HourWindow.classify(H, H + 30 * MIN)).isEqualTo(OPEN);
        assertThat(HourWindow.classify(H, H + 63 * MIN - 1)).isEqualTo(OPEN);
        assertThat(HourWindow.classify(H, H + 63 * MIN)).isEqualTo(TOO_LATE);
    }

    @Test
    void theTickerClosesEachHourOnceAtItsSixtyThirdMinuteAndCheckpointsOnTime()
    {
        final long[] now = {H + 10 * MIN};
        final List<String> events = new ArrayList<>();
        final HourTicker ticker = new HourTicker(() -> now[0], new PeriodEvents()
        {
            @Override
            public void closeHour(final long hourStart)
            {
                events.add("close " + (hourStart - H) / HOUR);
            }

            @Override
            public void checkpoint()
            {
                events.add("checkpoint");
            }
        }, 60);
        ticker.tick();
        assertThat(events).isEmpty();
        now[0] = H + 11 * MIN;
        ticker.tick();
        assertThat(events).containsExactly("checkpoint");
        now[0] = H + 63 * MIN - 1;
        ticker.tick();
        assertThat(events).containsExactly("checkpoint", "checkpoint");
        now[0] = H + 63 * MIN;
        ticker.tick();
        assertThat(events).containsExactly("checkpoint", "checkpoint", "close 0");
        now[0] = H + 3 * HOUR + 5 * MIN; // a long pause: every missed hour is closed, in order
        ticker.tick();
        assertThat(events).containsExactly("checkpoint", "checkpoint", "close 0", "close 1", "close 2",
            "checkpoint");
        assertThat(ticker.lastClosed()).isEqualTo(H + 2 * HOUR);
    }
}
