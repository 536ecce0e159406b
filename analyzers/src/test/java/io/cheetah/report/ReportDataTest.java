package io.cheetah.report;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReportDataTest
{
    private static byte[] sample()
    {
        return new ReportDataWriter(4).writeInt(7).writeString("交易").writeString(null).writeLong(-2L)
            .writeDouble(0.25).writeByte(1).writeInt(0).toByteArray();
    }

    @Test
    void readsBackWhatWasWritten() throws IOException
    {
        final ReportDataReader in = new ReportDataReader(sample(), "test report");
        in.version(7);
        assertThat(in.readString()).isEqualTo("交易");
        assertThat(in.readString()).isEmpty();
        assertThat(in.readLong()).isEqualTo(-2L);
        assertThat(in.readDouble()).isEqualTo(0.25);
        assertThat(in.readByte()).isEqualTo((byte)1);
        assertThat(in.readCount()).isZero();
        in.end();
    }

    @Test
    void theEnvelopeReadsBackAsWrittenAndRefusesAnotherVersion() throws IOException
    {
        final byte[] bytes = new ReportDataWriter(4).header(3, "app-001", 1_795_316_400_000L).writeInt(0)
            .toByteArray();
        final ReportDataReader in = new ReportDataReader(bytes, "test report");
        assertThat(in.header(3)).isEqualTo(new ReportDataReader.Header("app-001", 1_795_316_400_000L));
        assertThat(in.readCount()).isZero();
        in.end();
        assertThatThrownBy(() -> new ReportDataReader(bytes, "test report").header(4))
            .hasMessage("test report: unknown binary version 3 (this build reads 4)");
    }

    @Test
    void minutesMustRiseWithinTheHour() throws IOException
    {
        final byte[] bytes = new ReportDataWriter(4).writeInt(0).writeInt(59).writeInt(59).writeInt(60).writeInt(-1)
            .toByteArray();
        final ReportDataReader in = new ReportDataReader(bytes, "r");
        assertThat(in.readMinuteAfter(-1)).isZero();
        assertThat(in.readMinuteAfter(0)).isEqualTo(59);
        assertThatThrownBy(() -> in.readMinuteAfter(59)).hasMessage("r: damaged bytes (segment minute 59)");
        assertThatThrownBy(() -> in.readMinuteAfter(-1)).hasMessage("r: damaged bytes (segment minute 60)");
        assertThatThrownBy(() -> in.readMinuteAfter(-1)).hasMessage("r: damaged bytes (segment minute -1)");
    }

    @Test
    void refusesAnotherVersionNamingBoth()
    {
        assertThatThrownBy(() -> new ReportDataReader(sample(), "test report").version(8))
            .isInstanceOf(IOException.class)
            .hasMessage("test report: unknown binary version 7 (this build reads 8)");
    }

    @Test
    void refusesTruncatedBytesAtEveryCut()
    {
        final byte[] full = sample();
        for (int n = 0; n < full.length; n++)
        {
            final ReportDataReader in = new ReportDataReader(Arrays.copyOf(full, n), "test report");
            assertThatThrownBy(() ->
            {
                in.version(7);
                in.readString();
                in.readString();
                in.readLong();
                in.readDouble();
                in.readByte();
                in.readCount();
            }).isInstanceOf(IOException.class).hasMessageStartingWith("test report: damaged bytes");
        }
    }

    @Test
    void refusesCountsAndLengthsBeyondTheBytesLeftAndTrailingBytes() throws IOException
    {
        final byte[] huge = new ReportDataWriter(8).writeInt(Integer.MAX_VALUE).writeInt(-1).toByteArray();
        assertThatThrownBy(() -> new ReportDataReader(huge, "r").readCount())
            .hasMessage("r: damaged bytes (count 2147483647)");
        assertThatThrownBy(() -> new ReportDataReader(huge, "r").readString())
            .hasMessage("r: damaged bytes (string length 2147483647)");
        final ReportDataReader in = new ReportDataReader(huge, "r");
        in.readInt();
        assertThatThrownBy(in::end).hasMessage("r: damaged bytes (4 trailing bytes)");
    }

    @Test
    void writersOfOneThreadReuseABufferWithoutMixingTheirBytes() throws IOException
    {
        final byte[] expected = sample();
        final byte[] huge = new byte[5 * 1024 * 1024];
        Arrays.fill(huge, (byte)'x');
        final String big = new String(huge, java.nio.charset.StandardCharsets.ISO_8859_1);
        // a long report (past what the thread keeps), then short ones: each sees only its own bytes
        assertThat(new ReportDataWriter(4).writeString(big).toByteArray()).hasSize(4 + huge.length);
        assertThat(sample()).isEqualTo(expected);
        assertThat(sample()).isEqualTo(expected);
        // a writer opened while another of the same thread is still writing
        final ReportDataWriter outer = new ReportDataWriter(4).writeInt(7).writeString("交易");
        final byte[] inner = new ReportDataWriter(4).writeInt(1).toByteArray();
        final byte[] whole = outer.writeString(null).writeLong(-2L).writeDouble(0.25).writeByte(1).writeInt(0)
            .toByteArray();
        assertThat(inner).containsExactly(0, 0, 0, 1);
        assertThat(whole).isEqualTo(expected);
        assertThat(sample()).isEqualTo(expected);
    }
}
