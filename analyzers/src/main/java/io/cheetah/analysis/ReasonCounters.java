package io.cheetah.analysis;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.ObjLongConsumer;

/**
 * One counter per reason of an enum: what an analyzer partition folded or dropped, and why. Written only by the
 * partition's consumer thread with ordered (lazySet) writes, read by any thread (metrics, the State page) with
 * volatile reads: no lock, no contention. The reasons' lower-case names are the {@code reason} label of
 * {@code cheetah_analyzer_losses_total}.
 *
 * @param <E> the reasons.
 */
public final class ReasonCounters<E extends Enum<E>>
{
    private final String[] labels;
    private final AtomicLongArray counts;

    /**
     * @param reasons the enum of reasons.
     */
    public ReasonCounters(final Class<E> reasons)
    {
        final E[] all = reasons.getEnumConstants();
        this.labels = new String[all.length];
        for (int i = 0; i < all.length; i++)
        {
            labels[i] = all[i].name().toLowerCase(Locale.ROOT);
        }
        this.counts = new AtomicLongArray(all.length);
    }

    /**
     * Counts one more; single writer only.
     *
     * @param reason why.
     */
    public void increment(final E reason)
    {
        final int i = reason.ordinal();
        counts.lazySet(i, counts.get(i) + 1);
    }

    /**
     * @param reason a reason.
     * @return its count so far.
     */
    public long get(final E reason)
    {
        return counts.get(reason.ordinal());
    }

    /**
     * @param out receives each reason's label and count, in declaration order.
     */
    public void forEach(final ObjLongConsumer<String> out)
    {
        for (int i = 0; i < labels.length; i++)
        {
            out.accept(labels[i], counts.get(i));
        }
    }
}
