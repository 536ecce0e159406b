package io.cheetah.server.storage;

import io.cheetah.analysis.EncodedReport;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReportEnvelopeTest
{
    private final ReportFormat format = new CountingReport.Format();
    private final Map<String, ReportFormat> formats = Map.of("transaction", format);

    @Test
    void roundTripKeepsEveryField() throws IOException
    {
        final CountingReport report = CountingReport.of("transaction", "shop-ü", 3_600_000L * 500_000, 42);
        final byte[] bytes = ReportEnvelope.encode(format, report);
        assertThat(ReportEnvelope.analyzer(bytes)).isEqualTo("transaction");
        assertThat(ReportEnvelope.decode(formats, bytes)).isEqualTo(report);
    }

    @Test
    void aReportItsAnalyzerEncodedAlreadyIsStoredAsThoseBytes() throws IOException
    {
        final CountingReport report = CountingReport.of("transaction", "shop", 3_600_000L * 500_000, 7);
        final EncodedReport encoded = new EncodedReport("transaction", "shop", report.hourStart(),
            format.encode(report));
        final byte[] bytes = ReportEnvelope.encode(format, encoded);
        assertThat(bytes).isEqualTo(ReportEnvelope.encode(format, report));
        assertThat(ReportEnvelope.decode(formats, bytes)).isEqualTo(report);
    }

    @Test
    void largeRepetitiveReportsAreCompressed() throws IOException
    {
        final Map<String, Long> counts = new TreeMap<>();
        for (int i = 0; i < 2_000; i++)
        {
            counts.put("com.example.service.OrderService.placeOrder-" + i, (long)i);
        }
        final CountingReport report = new CountingReport("transaction", "shop", 0, counts, 1);
        final byte[] bytes = ReportEnvelope.encode(format, report);
        assertThat(bytes.length).isLessThan(format.encode(report).length / 2);
        assertThat(ReportEnvelope.decode(formats, bytes)).isEqualTo(report);
    }

    @Test
    void reportsOfEverySizeInARowOnOneThreadEachRoundTrip() throws IOException
    {
        // the compression scratch is kept per thread: a small report after a large one, and one past the scratch
        for (final int names : new int[] {2_000, 1, 300_000, 10, 2_000})
        {
            final Map<String, Long> counts = new TreeMap<>();
            for (int i = 0; i < names; i++)
            {
                counts.put("com.example.service.OrderService.placeOrder-" + i, (long)i * 31);
            }
            final CountingReport report = new CountingReport("transaction", "shop", 0, counts, names);
            assertThat(ReportEnvelope.decode(formats, ReportEnvelope.encode(format, report))).isEqualTo(report);
        }
    }

    @Test
    void aCompressedBodyShortOfItsDeclaredLengthIsRefusedNotReadPast() throws IOException
    {
        // envelopes come from MySQL, which other cluster members write: the decompressor must check bounds itself
        final Map<String, Long> counts = new TreeMap<>();
        for (int i = 0; i < 2_000; i++)
        {
            counts.put("com.example.service.OrderService.placeOrder-" + i, (long)i);
        }
        final byte[] bytes = ReportEnvelope.encode(format, new CountingReport("transaction", "shop", 0, counts, 1));
        for (final int cut : new int[] {1, 7, 100, bytes.length / 3})
        {
            final byte[] shorter = java.util.Arrays.copyOf(bytes, bytes.length - cut);
            assertThatThrownBy(() -> ReportEnvelope.decode(formats, shorter)).as("cut by %d", cut)
                .isInstanceOf(IOException.class);
        }
        final byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 64);
        assertThatThrownBy(() -> ReportEnvelope.decode(formats, longer)).isInstanceOf(IOException.class);
    }

    @Test
    void unknownEnvelopeVersionIsAClearError()
    {
        final byte[] bytes = ReportEnvelope.encode(format, CountingReport.of("transaction", "a", 0, 1));
        bytes[4] = 9;
        assertThatThrownBy(() -> ReportEnvelope.decode(formats, bytes)).isInstanceOf(IOException.class)
            .hasMessageContaining("envelope version 9 is unknown");
    }

    @Test
    void unknownFormatVersionIsAClearError()
    {
        final ReportFormat newer = new CountingReport.Format()
        {
            @Override
            public int version()
            {
                return 4;
            }
        };
        final byte[] bytes = ReportEnvelope.encode(newer, CountingReport.of("transaction", "a", 0, 1));
        assertThatThrownBy(() -> ReportEnvelope.decode(formats, bytes)).isInstanceOf(IOException.class)
            .hasMessageContaining("format version 4").hasMessageContaining("reads version 3");
    }

    @Test
    void damagedOrForeignBytesAreRefused()
    {
        final byte[] bytes = ReportEnvelope.encode(format, CountingReport.of("transaction", "a", 0, 1));
        bytes[bytes.length - 1] ^= 0x55;
        assertThatThrownBy(() -> ReportEnvelope.decode(formats, bytes)).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> ReportEnvelope.decode(formats, "<xml/>".getBytes()))
            .isInstanceOf(IOException.class).hasMessageContaining("bad magic");
        final byte[] truncated = java.util.Arrays.copyOf(ReportEnvelope.encode(format,
            CountingReport.of("transaction", "a", 0, 1)), 12);
        assertThatThrownBy(() -> ReportEnvelope.decode(formats, truncated)).isInstanceOf(IOException.class);
        final Report other = CountingReport.of("event", "a", 0, 1);
        assertThatThrownBy(() -> ReportEnvelope.decode(formats, ReportEnvelope.encode(format, other)))
            .isInstanceOf(IOException.class).hasMessageContaining("unknown analyzer 'event'");
    }
}
