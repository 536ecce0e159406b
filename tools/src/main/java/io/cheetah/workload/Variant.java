package io.cheetah.workload;

import java.util.Locale;

/**
 * The traffic variants of the standard workload ({@code docs/workload.md}). Chosen by the benchmarks and the replay
 * tool by name ({@code std-mix}, {@code error-storm}, {@code cardinality-bomb}, {@code batch}).
 */
public enum Variant
{
    /** Request trees of the std shape, 1% failing with a ~500-byte stack trace, plus heartbeats. */
    STD_MIX(0.01, 500),
    /** 30% failing trees, each with a ~4 KB stack trace. */
    ERROR_STORM(0.30, 4096),
    /** Every tree uses fresh random type and name strings (tests caps and memory bounds). */
    CARDINALITY_BOMB(0.01, 500),
    /** Client-side aggregated traffic: System/TransactionAggregator and System/EventAggregator batch trees. */
    BATCH(0.0, 0);

    private final double failRate;
    private final int stackBytes;

    Variant(final double failRate, final int stackBytes)
    {
        this.failRate = failRate;
        this.stackBytes = stackBytes;
    }

    /**
     * @return the fraction of request trees whose root fails.
     */
    public double failRate()
    {
        return failRate;
    }

    /**
     * @return the approximate size of the stack trace a failing tree carries.
     */
    public int stackBytes()
    {
        return stackBytes;
    }

    /**
     * @return the variant's name as the docs and command lines spell it, e.g. {@code std-mix}.
     */
    public String label()
    {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @param label e.g. {@code error-storm}.
     * @return the variant.
     * @throws IllegalArgumentException naming the accepted labels.
     */
    public static Variant of(final String label)
    {
        for (final Variant v : values())
        {
            if (v.label().equals(label))
            {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown workload variant '" + label +
            "' (expected std-mix, error-storm, cardinality-bomb or batch)");
    }
}
