package io.cheetah.report;

import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class HourTextTest
{
    @Test
    void writesTheHoursFirstAndLastSecondInTheServerZone()
    {
        final ZoneId shanghai = ZoneId.of("Asia/Shanghai");
        final long hour = LocalDateTime.of(2024, 5, 1, 13, 0).atZone(shanghai).toInstant().toEpochMilli();
        assertThat(HourText.start(hour, shanghai)).isEqualTo("2024-05-01 13:00:00");
        assertThat(HourText.end(hour, shanghai)).isEqualTo("2024-05-01 13:59:59");
        assertThat(HourText.lastSecond(hour + 3_600_000L, shanghai)).isEqualTo("2024-05-01 13:59:59");
        // the same instant in another zone, whatever the JVM's own zone is
        assertThat(HourText.start(hour, ZoneOffset.UTC)).isEqualTo("2024-05-01 05:00:00");
    }
}
