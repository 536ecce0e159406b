package io.cheetah.catimport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.cheetah.catimport.nativeformat.NativeDecoder;
import io.cheetah.catimport.nativeformat.NativeFormatException;

import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * Damaged, truncated and foreign blobs end in a {@link NativeFormatException} naming the offset and the reason:
 * never another exception, an endless loop or an allocation the blob's size does not justify.
 */
class DamagedBlobTest
{
    private static final Duration QUICKLY = Duration.ofSeconds(30);

    @Test
    void truncationsOfEveryRealBlobAreRefusedWithTheirOffsets()
    {
        assertTimeoutPreemptively(QUICKLY, () ->
        {
            for (final HourlyReportRow row : CatSqlDump.rows())
            {
                // every cut of the small blobs, some 400 spread over each large one
                final int step = Math.max(1, row.content().length / 400);
                for (int next = 0; next < row.content().length + step - 1; next += step)
                {
                    // the last cut drops only the root's end marker
                    final int cut = Math.min(next, row.content().length - 1);
                    final byte[] truncated = Arrays.copyOf(row.content(), cut);
                    final int length = cut;
                    assertThatThrownBy(() -> row.kind().decoder().decode(truncated))
                        .as("%s %s cut at %d", row.name(), row.domain(), cut)
                        .isInstanceOfSatisfying(NativeFormatException.class, e ->
                        {
                            assertThat(e.offset()).isBetween(0, length);
                            assertThat(e.getMessage()).contains("at offset " + e.offset());
                        });
                }
            }
        });
    }

    @Test
    void flippedBytesDecodeOrAreRefusedNeverWorse()
    {
        final SplittableRandom random = new SplittableRandom(53);
        assertTimeoutPreemptively(QUICKLY, () ->
        {
            int refused = 0;
            int tries = 0;
            for (final HourlyReportRow row : CatSqlDump.rows())
            {
                final int rounds = row.content().length > 20_000 ? 20 : 200;
                for (int i = 0; i < rounds; i++)
                {
                    final byte[] damaged = row.content().clone();
                    final int flips = 1 + random.nextInt(3);
                    for (int f = 0; f < flips; f++)
                    {
                        damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
                    }
                    tries++;
                    try
                    {
                        row.kind().decoder().decode(damaged);
                    }
                    catch (final NativeFormatException e)
                    {
                        refused++;
                        assertThat(e.offset()).isBetween(0, damaged.length);
                    }
                }
            }
            assertThat(refused).as("of %d damaged blobs", tries).isPositive();
        });
    }

    @Test
    void anUnknownMarkerIsNamed()
    {
        final byte[] blob = CatSqlDump.rows("transaction", "compat-java31").get(0).content().clone();
        blob[0] = 0x03;
        assertThatThrownBy(() -> CatReportKind.TRANSACTION.decoder().decode(blob))
            .isInstanceOf(NativeFormatException.class)
            .hasMessage("unknown format marker 0x03 (CAT's native reports start with 0xFC) at offset 0");
        assertThatThrownBy(() -> CatReportKind.TRANSACTION.decoder().decode("<transaction-report/>".getBytes(
            java.nio.charset.StandardCharsets.US_ASCII)))
            .hasMessageContaining("looks like XML");
        assertThatThrownBy(() -> CatReportKind.TRANSACTION.decoder().decode(new byte[0]))
            .hasMessage("empty blob at offset 0");
    }

    @Test
    void aHugeCountIsRefusedBeforeAnythingIsAllocated()
    {
        // root, machines list (tag 33, kind 2) claiming 2^32 - 1 entries, then the root's end
        final byte[] blob = {(byte) 0xFC, (byte) 0x86, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F,
            (byte) 0xFF};
        assertThatThrownBy(() -> CatReportKind.TRANSACTION.decoder().decode(blob))
            .isInstanceOf(NativeFormatException.class)
            .hasMessage("list count 4294967295 cannot fit in the 1 bytes left at offset 2");
        final byte[] negative = {(byte) 0xFC, (byte) 0x86, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01, (byte) 0xFF};
        assertThatThrownBy(() -> CatReportKind.TRANSACTION.decoder().decode(negative))
            .hasMessageStartingWith("list count 9223372036854775808 cannot fit");
    }

    @Test
    void anOverlongVarintAndAnOverlongStringAreNamed()
    {
        final byte[] varint = new byte[14];
        Arrays.fill(varint, (byte) 0x80);
        varint[0] = (byte) 0xFC;
        varint[1] = 0x09; // startTime (2, kind 1): a date varint
        assertThatThrownBy(() -> CatReportKind.TRANSACTION.decoder().decode(varint))
            .hasMessage("varint longer than 10 bytes at offset 2");
        final byte[] string = {(byte) 0xFC, 0x05, 0x7F, (byte) 0xFF, 'a', 'b', (byte) 0xFF};
        assertThatThrownBy(() -> CatReportKind.TRANSACTION.decoder().decode(string))
            .hasMessage("truncated: a string of 32767 bytes but only 3 left at offset 2");
    }

    @Test
    void unknownFieldsWrongKindsAndTrailingBytesAreNamed()
    {
        assertThatThrownBy(() -> CatReportKind.TRANSACTION.decoder().decode(new byte[] {(byte) 0xFC, 0x28, 0x00}))
            .hasMessage("unknown field 10 (tag 0x28) in <transaction-report> at offset 1");
        assertThatThrownBy(() -> CatReportKind.TRANSACTION.decoder().decode(new byte[] {(byte) 0xFC, (byte) 0x85}))
            .hasMessage("tag 0x85 gives kind 1 to field 33 (machine) of <transaction-report>, which is written with"
                + " kind 2 at offset 1");
        assertThatThrownBy(() -> CatReportKind.TRANSACTION.decoder().decode(new byte[] {(byte) 0xFC, (byte) 0xFF,
            0x00}))
            .hasMessage("1 trailing bytes after the report's end at offset 2");
        assertThatThrownBy(() -> CatReportKind.EVENT.decoder().decode(new byte[] {(byte) 0xFC, (byte) 0xFE, 0x00}))
            .hasMessage("unknown field 63 (tag 0xFE) in <event-report> at offset 1");
    }

    @Test
    void theSmallestReportDecodes() throws NativeFormatException
    {
        assertThat(new NativeDecoder(CatReportKind.HEARTBEAT.schema()).decode(new byte[] {(byte) 0xFC, (byte) 0xFF})
            .children()).isEmpty();
    }
}
