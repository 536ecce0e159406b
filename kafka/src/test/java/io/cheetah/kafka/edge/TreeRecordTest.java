package io.cheetah.kafka.edge;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TreeRecordTest
{
    @Test
    void theHeaderAndTheFrameComeBackAsWritten()
    {
        final byte[] frame = {0, 0, 0, 3, 'a', 'b', 'c', 99, 98};
        final byte[] value = new byte[TreeRecord.HEADER + 7];
        TreeRecord.write(value, frame, 7, 1_764_374_400_123L, -8, true);
        assertThat(TreeRecord.arrivalMillis(value)).isEqualTo(1_764_374_400_123L);
        assertThat(TreeRecord.pt1Hours(value)).isEqualTo(-8);
        assertThat(TreeRecord.wide(value)).isTrue();
        assertThat(TreeRecord.frameLength(value)).isEqualTo(7);
        assertThat(Arrays.copyOfRange(value, TreeRecord.HEADER, value.length))
            .isEqualTo(Arrays.copyOf(frame, 7));

        TreeRecord.write(value, frame, 7, 0, 13, false);
        assertThat(TreeRecord.arrivalMillis(value)).isZero();
        assertThat(TreeRecord.pt1Hours(value)).isEqualTo(13);
        assertThat(TreeRecord.wide(value)).isFalse();
    }

    @Test
    void aValueOfAnotherFormatOrAnOffsetOutOfRangeIsRefused()
    {
        final byte[] value = new byte[TreeRecord.HEADER + 4];
        assertThatThrownBy(() -> TreeRecord.arrivalMillis(value)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("version 0");
        assertThatThrownBy(() -> TreeRecord.wide(new byte[3])).isInstanceOf(IllegalArgumentException.class);
        assertThat(TreeRecord.valid(value)).as("version 0").isFalse();
        assertThat(TreeRecord.valid(null)).isFalse();
        assertThat(TreeRecord.valid(new byte[TreeRecord.HEADER + 3])).as("no room for a length prefix").isFalse();
        value[0] = TreeRecord.VERSION;
        assertThat(TreeRecord.valid(value)).isTrue();
        assertThatThrownBy(() -> TreeRecord.write(value, new byte[4], 4, 0, 200, false))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
