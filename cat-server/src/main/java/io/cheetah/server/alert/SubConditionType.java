package io.cheetah.server.alert;

/**
 * The ten sub-condition types of CAT's alert rules ({@code <sub-condition type="..." text="...">}), with CAT's exact
 * semantics: each looks at the values of a condition's window (oldest first) and, for the baseline types, at the
 * baseline values of the same minutes. CAT's Transaction, Event and Exception alerts pass the values themselves as
 * the baseline, so the baseline types compare a series with itself there; that is kept (docs/alerting.md says so).
 * {@code UserDefine} (Java source compiled at run time in CAT) is refused by {@link #of}.
 */
public enum SubConditionType
{
    /** Every value at least the threshold. */
    MAX_VAL("MaxVal")
    {
        @Override
        boolean holds(final double[] v, final double[] b, final double t)
        {
            return everyMinute(v, v, (x, same) -> x >= t);
        }
    },
    /** Every value at most the threshold. */
    MIN_VAL("MinVal")
    {
        @Override
        boolean holds(final double[] v, final double[] b, final double t)
        {
            return everyMinute(v, v, (x, same) -> x <= t);
        }
    },
    /** The window's sum at least the threshold. */
    SUM_MAX_VAL("SumMaxVal")
    {
        @Override
        boolean holds(final double[] v, final double[] b, final double t)
        {
            return sum(v) >= t;
        }
    },
    /** The window's sum at most the threshold. */
    SUM_MIN_VAL("SumMinVal")
    {
        @Override
        boolean holds(final double[] v, final double[] b, final double t)
        {
            return sum(v) <= t;
        }
    },
    /** The last value at least threshold % above every earlier one of the window (needs two values). */
    FLU_ASC_PER("FluAscPer")
    {
        @Override
        boolean holds(final double[] v, final double[] b, final double t)
        {
            return fluctuates(v, t, true);
        }
    },
    /** The last value at least threshold % below every earlier one of the window (needs two values). */
    FLU_DESC_PER("FluDescPer")
    {
        @Override
        boolean holds(final double[] v, final double[] b, final double t)
        {
            return fluctuates(v, t, false);
        }
    },
    /** Every value at least the threshold above its baseline. */
    ASC_VAL("AscVal")
    {
        @Override
        boolean holds(final double[] v, final double[] b, final double t)
        {
            return everyMinute(v, b, (x, base) -> x - base >= t);
        }
    },
    /** Every value at least threshold % above a positive baseline. */
    ASC_PER("AscPer")
    {
        @Override
        boolean holds(final double[] v, final double[] b, final double t)
        {
            return everyMinute(v, b, (x, base) -> base > 0 && x / base >= 1 + t / 100);
        }
    },
    /** Every value at least the threshold below its baseline. */
    DESC_VAL("DescVal")
    {
        @Override
        boolean holds(final double[] v, final double[] b, final double t)
        {
            return everyMinute(v, b, (x, base) -> base - x >= t);
        }
    },
    /** Every value at least threshold % below a positive baseline. */
    DESC_PER("DescPer")
    {
        @Override
        boolean holds(final double[] v, final double[] b, final double t)
        {
            return everyMinute(v, b, (x, base) -> base > 0 && x / base <= 1 - t / 100);
        }
    };

    private final String id;

    SubConditionType(final String id)
    {
        this.id = id;
    }

    /** @return the type's name in CAT's rule files, e.g. {@code MaxVal}. */
    public String id()
    {
        return id;
    }

    /**
     * @param values    the window's values, oldest first.
     * @param baselines the baseline of each minute (the same length).
     * @param threshold the sub-condition's threshold, parsed by {@link #threshold}.
     * @return whether the sub-condition holds.
     */
    abstract boolean holds(double[] values, double[] baselines, double threshold);

    /**
     * @param id a type as CAT's rule files name it.
     * @return the type.
     * @throws IllegalArgumentException for {@code UserDefine} (never compiled here) and unknown types, saying why.
     */
    public static SubConditionType of(final String id)
    {
        for (final SubConditionType t : values())
        {
            if (t.id.equals(id))
            {
                return t;
            }
        }
        if ("UserDefine".equals(id))
        {
            throw new IllegalArgumentException("sub-condition type UserDefine (Java compiled at run time by CAT) is " +
                "not supported: express the rule with the other types");
        }
        throw new IllegalArgumentException("unknown sub-condition type " + id + "; known: MaxVal, MinVal, SumMaxVal, " +
            "SumMinVal, FluAscPer, FluDescPer, AscVal, AscPer, DescVal, DescPer");
    }

    /** @return true for the four types that compare each value with its baseline. */
    public boolean usesBaseline()
    {
        return this == ASC_VAL || this == ASC_PER || this == DESC_VAL || this == DESC_PER;
    }

    /**
     * A threshold as CAT reads it: a number, or one with a unit of traffic ({@code Mb/s}, {@code Gb/s}, {@code MB/s},
     * {@code GB/s}: per minute, in bits; {@code Mb}, {@code Gb}, {@code MB}, {@code GB}: in bits).
     *
     * @param text the sub-condition's text.
     * @return the threshold.
     * @throws NumberFormatException when it is no number.
     */
    public static double threshold(final String text)
    {
        final String t = text.trim();
        final double mega = 1024.0 * 1024;
        final double giga = mega * 1024;
        if (t.endsWith("Mb/s"))
        {
            return number(t, 4) * 60 * mega;
        }
        if (t.endsWith("Gb/s"))
        {
            return number(t, 4) * 60 * giga;
        }
        if (t.endsWith("MB/s"))
        {
            return number(t, 4) * 60 * mega * 8;
        }
        if (t.endsWith("GB/s"))
        {
            return number(t, 4) * 60 * giga * 8;
        }
        if (t.endsWith("Mb"))
        {
            return number(t, 2) * mega;
        }
        if (t.endsWith("Gb"))
        {
            return number(t, 2) * giga;
        }
        if (t.endsWith("MB"))
        {
            return number(t, 2) * mega * 8;
        }
        if (t.endsWith("GB"))
        {
            return number(t, 2) * giga * 8;
        }
        return Double.parseDouble(t);
    }

    private static double number(final String text, final int unitLength)
    {
        return Double.parseDouble(text.substring(0, text.length() - unitLength).trim());
    }

    /** A test of one minute's value against its baseline. */
    @FunctionalInterface
    private interface MinuteTest
    {
        boolean test(double value, double baseline);
    }

    private static boolean everyMinute(final double[] v, final double[] b, final MinuteTest test)
    {
        for (int i = 0; i < v.length; i++)
        {
            if (!test.test(v[i], b[i]))
            {
                return false;
            }
        }
        return true;
    }

    /** The last value's change against every earlier one, up or down, at least t %. */
    private static boolean fluctuates(final double[] v, final double t, final boolean up)
    {
        if (v.length <= 1)
        {
            return false;
        }
        final double last = v[v.length - 1];
        for (int i = 0; i < v.length - 1; i++)
        {
            final double change = up ? last / v[i] - 1 : 1 - last / v[i];
            if (change < t / 100)
            {
                return false;
            }
        }
        return true;
    }

    private static double sum(final double[] v)
    {
        double s = 0;
        for (final double x : v)
        {
            s += x;
        }
        return s;
    }
}
