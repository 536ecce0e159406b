package io.cheetah.server.alert;

import org.junit.jupiter.api.Test;

import static io.cheetah.server.alert.SubConditionType.ASC_PER;
import static io.cheetah.server.alert.SubConditionType.ASC_VAL;
import static io.cheetah.server.alert.SubConditionType.DESC_PER;
import static io.cheetah.server.alert.SubConditionType.DESC_VAL;
import static io.cheetah.server.alert.SubConditionType.FLU_ASC_PER;
import static io.cheetah.server.alert.SubConditionType.FLU_DESC_PER;
import static io.cheetah.server.alert.SubConditionType.MAX_VAL;
import static io.cheetah.server.alert.SubConditionType.MIN_VAL;
import static io.cheetah.server.alert.SubConditionType.SUM_MAX_VAL;
import static io.cheetah.server.alert.SubConditionType.SUM_MIN_VAL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each type against series computed by hand from CAT's {@code RuleType}. */
class SubConditionTypeTest
{
    private static final double[] RISING = {100, 120, 150};
    private static final double[] BASE = {80, 100, 100};

    @Test
    void absoluteTypesLookAtEveryValueAndTheSumTypesAtTheirSum()
    {
        assertThat(MAX_VAL.holds(RISING, RISING, 100)).as("every value >= 100").isTrue();
        assertThat(MAX_VAL.holds(RISING, RISING, 101)).as("100 < 101").isFalse();
        assertThat(MIN_VAL.holds(RISING, RISING, 150)).isTrue();
        assertThat(MIN_VAL.holds(RISING, RISING, 149)).isFalse();
        assertThat(SUM_MAX_VAL.holds(RISING, RISING, 370)).as("sum 370").isTrue();
        assertThat(SUM_MAX_VAL.holds(RISING, RISING, 370.5)).isFalse();
        assertThat(SUM_MIN_VAL.holds(RISING, RISING, 370)).isTrue();
        assertThat(SUM_MIN_VAL.holds(RISING, RISING, 369)).isFalse();
    }

    @Test
    void fluctuationTypesCompareTheLastValueWithEveryEarlierOne()
    {
        // 150 is 50 % above 100 and 25 % above 120
        assertThat(FLU_ASC_PER.holds(RISING, RISING, 25)).isTrue();
        assertThat(FLU_ASC_PER.holds(RISING, RISING, 26)).isFalse();
        assertThat(FLU_ASC_PER.holds(new double[] {100}, new double[] {100}, 0)).as("one value").isFalse();
        // 60 is 40 % below 100 and 50 % below 120
        final double[] falling = {100, 120, 60};
        assertThat(FLU_DESC_PER.holds(falling, falling, 40)).isTrue();
        assertThat(FLU_DESC_PER.holds(falling, falling, 41)).isFalse();
        assertThat(FLU_DESC_PER.holds(RISING, RISING, 0)).as("rising").isFalse();
    }

    @Test
    void baselineTypesCompareEachMinuteWithItsBaselineAndNeedAPositiveOneForPercentages()
    {
        // differences 20, 20, 50; ratios 1.25, 1.2, 1.5
        assertThat(ASC_VAL.holds(RISING, BASE, 20)).isTrue();
        assertThat(ASC_VAL.holds(RISING, BASE, 21)).isFalse();
        assertThat(ASC_PER.holds(RISING, BASE, 20)).isTrue();
        assertThat(ASC_PER.holds(RISING, BASE, 21)).isFalse();
        assertThat(ASC_PER.holds(RISING, new double[] {0, 100, 100}, 0)).as("baseline 0").isFalse();
        assertThat(DESC_VAL.holds(BASE, RISING, 20)).isTrue();
        assertThat(DESC_VAL.holds(BASE, RISING, 21)).isFalse();
        // ratios 0.8, 0.8333, 0.6667: each at most 1 - 16.6 %
        assertThat(DESC_PER.holds(BASE, RISING, 16.6)).isTrue();
        assertThat(DESC_PER.holds(BASE, RISING, 17)).isFalse();
        // CAT's Transaction and Event alerts pass the values as their own baseline: these never fire there
        assertThat(ASC_VAL.holds(RISING, RISING, 1)).isFalse();
        assertThat(DESC_PER.holds(RISING, RISING, 1)).isFalse();
    }

    @Test
    void typesAndThresholdsAreReadAsCatWritesThem()
    {
        for (final SubConditionType t : SubConditionType.values())
        {
            assertThat(SubConditionType.of(t.id())).isSameAs(t);
        }
        assertThatThrownBy(() -> SubConditionType.of("UserDefine")).hasMessageContaining("UserDefine")
            .hasMessageContaining("not supported");
        assertThatThrownBy(() -> SubConditionType.of("Bigger")).hasMessageContaining("unknown sub-condition type Bigger");
        assertThat(SubConditionType.threshold(" 12.5 ")).isEqualTo(12.5);
        assertThat(SubConditionType.threshold("2Mb")).isEqualTo(2.0 * 1024 * 1024);
        assertThat(SubConditionType.threshold("1MB")).isEqualTo(8.0 * 1024 * 1024);
        assertThat(SubConditionType.threshold("1Gb/s")).isEqualTo(60.0 * 1024 * 1024 * 1024);
        assertThat(SubConditionType.threshold("1GB/s")).isEqualTo(480.0 * 1024 * 1024 * 1024);
        assertThatThrownBy(() -> SubConditionType.threshold("lots")).isInstanceOf(NumberFormatException.class);
    }
}
