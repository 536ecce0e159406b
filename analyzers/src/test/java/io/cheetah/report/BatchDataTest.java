package io.cheetah.report;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class BatchDataTest
{
    private final BatchData batch = new BatchData();

    private boolean parse(final String s)
    {
        final byte[] b = ("xx" + s).getBytes(StandardCharsets.UTF_8);
        return batch.parse(b, 2, b.length - 2);
    }

    @Test
    void goTransactionFormWithTrailingSemicolon()
    {
        assertThat(parse("@8;0;30;4,1|2,2|7,1|5,1|3,1|1,1|6,1;")).isTrue();
        assertThat(batch.count()).isEqualTo(8);
        assertThat(batch.fails()).isZero();
        assertThat(batch.sum()).isEqualTo(30);
        assertThat(batch.buckets()).isEqualTo(7);
        assertThat(batch.bucket(1)).isEqualTo(2);
        assertThat(batch.bucketCount(1)).isEqualTo(2);
    }

    @Test
    void cFormWithoutTrailingFieldsAndLongDurations()
    {
        assertThat(parse("@5;3;12.5;1,5")).isTrue();
        assertThat(batch.count()).isEqualTo(5);
        assertThat(batch.fails()).isEqualTo(3);
        assertThat(batch.sum()).isEqualTo(12.5);
        assertThat(batch.buckets()).isEqualTo(1);
        assertThat(parse("@5;1;10;2,5;1000,1")).isTrue();
        assertThat(batch.buckets()).isEqualTo(1);
        assertThat(parse("@3;0;9;;")).isTrue();
        assertThat(batch.buckets()).isZero();
    }

    @Test
    void eventAndBulkForms()
    {
        assertThat(parse("@1;0")).isTrue();
        assertThat(batch.count()).isEqualTo(1);
        assertThat(parse("@=7,2,40")).isTrue();
        assertThat(batch.count()).isEqualTo(9);
        assertThat(batch.fails()).isEqualTo(2);
        assertThat(batch.sum()).isEqualTo(40);
        assertThat(parse("@=7,2")).isTrue();
        assertThat(batch.count()).isEqualTo(9);
    }

    @Test
    void malformedIsRefused()
    {
        assertThat(parse("@x;0")).isFalse();
        assertThat(parse("@2;5")).isFalse();
        assertThat(parse("@=a,1")).isFalse();
        assertThat(parse("@1;0;3;4,|")).isFalse();
        assertThat(parse("@")).isFalse();
    }
}
