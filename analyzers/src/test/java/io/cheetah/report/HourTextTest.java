package io.cheetah.report;

import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;

class HourTextTest
{
    @Test
    void writesTheHoursFirstAndLastSecondInTheServerZone()
    {
        final long hour = LocalDateTime.of(2024, 5, 1, 13, 0).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        assertThat(HourText.start(hour)).isEqualTo("2024-05-01 13:00:00");
        assertThat(HourText.end(hour)).isEqualTo("2024-05-01 13:59:59");
    }
}
