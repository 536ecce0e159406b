package io.cheetah.report;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * CAT's number formats in report XML ({@code 0.00} and {@code 0.0} of its model files, which its builders apply with a
 * {@code DecimalFormat}: half-even rounding of the exact binary value). Used by the report formats that print them.
 */
public final class CatDecimals
{
    private CatDecimals()
    {
    }

    /**
     * @param v a value.
     * @return CAT's {@code 0.00}; {@code 0.00} for NaN and infinities.
     */
    public static String two(final double v)
    {
        return Double.isFinite(v) ? new BigDecimal(v).setScale(2, RoundingMode.HALF_EVEN).toPlainString() : "0.00";
    }

    /**
     * @param v a value.
     * @return CAT's {@code 0.0}; {@code 0.0} for NaN and infinities.
     */
    public static String one(final double v)
    {
        return Double.isFinite(v) ? new BigDecimal(v).setScale(1, RoundingMode.HALF_EVEN).toPlainString() : "0.0";
    }
}
