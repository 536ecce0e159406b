package io.cheetah.analysis;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link ReportFormat} whose reports are value records must do: round-trip its binary form, refuse a
 * future version or damaged bytes with an {@link IOException} (so storage quarantines the row instead of serving
 * garbage), and merge associatively and commutatively (so partitions, hours and servers merge in any order).
 * A format's test extends this and says how to make random reports.
 */
public abstract class ReportFormatContract
{
    /** Makes a report from random traffic: seed, and how much traffic (trees or heartbeats). */
    protected interface RandomReports
    {
        /**
         * @param seed random seed.
         * @param size how much traffic built it.
         * @return a report built by the real analyzer.
         */
        Report make(long seed, int size);
    }

    private final ReportFormat format;
    private final RandomReports reports;

    /**
     * @param format  the format under test.
     * @param reports how to make its reports.
     */
    protected ReportFormatContract(final ReportFormat format, final RandomReports reports)
    {
        this.format = format;
        this.reports = reports;
    }

    @Test
    void binaryRoundTripsAndRefusesFutureVersionsAndDamagedBytes() throws IOException
    {
        final Report report = reports.make(1, 100);
        final byte[] bytes = format.encode(report);
        assertThat(format.decode(bytes)).isEqualTo(report);
        final byte[] future = bytes.clone();
        future[3] = 9;
        assertThatThrownBy(() -> format.decode(future)).isInstanceOf(IOException.class)
            .hasMessageContaining("unknown binary version 9");
        assertThatThrownBy(() -> format.decode(Arrays.copyOf(bytes, bytes.length - 3)))
            .isInstanceOf(IOException.class).hasMessageContaining("damaged");
    }

    @Test
    void mergeIsAssociativeAndCommutative()
    {
        for (long seed = 10; seed < 20; seed++)
        {
            final Report a = reports.make(seed, 200);
            final Report b = reports.make(seed + 100, 150);
            final Report c = reports.make(seed + 200, 80);
            assertThat(format.merge(a, b)).isEqualTo(format.merge(b, a));
            assertThat(format.merge(format.merge(a, b), c)).isEqualTo(format.merge(a, format.merge(b, c)));
        }
    }
}
