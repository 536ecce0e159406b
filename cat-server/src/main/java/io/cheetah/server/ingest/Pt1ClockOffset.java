package io.cheetah.server.ingest;

import io.cheetah.message.FlatTree;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.period.Clock;
import io.cheetah.server.period.HourWindow;

/**
 * The whole-hour clock offset of one connection's PT1 trees (docs/protocol.md §1.4): PT1 timestamps are wall-clock
 * text without a zone, read in {@code tcp.pt1.zone} (GMT+8), but ccat (C, Python's cat-sdk) writes its host's local
 * time, so the trees of a client in UTC are read 8 hours in the past and every one is too late.
 * <p>
 * Each PT1 tree is judged by its root timestamp, after the offset adopted so far: inside an open hour it agrees;
 * outside them, when it sits a whole number of hours from now (±{@link #TOLERANCE_MILLIS}), that number of hours is
 * its candidate; anything else (a clock that is simply wrong, a long transaction, a backlog) has none. When
 * {@link #TREES_TO_ADOPT} trees in a row have the same candidate, it is adopted for the connection, and that tree and
 * every later PT1 tree of the connection are moved by it before the period check. The trees of a run that has not
 * reached {@link #TREES_TO_ADOPT} yet are <i>held</i> by the connection (at most {@code TREES_TO_ADOPT - 1}, for at
 * most {@link #HOLD_MILLIS}): when the run adopts its offset they are moved by it too and go on before the tree that
 * decided, so a client's first trees count in the right hour; when the run breaks, the connection closes or the hold
 * times out, they go on as they are (counted too late or too early, never dropped silently). The judging goes on, so
 * a client whose offset changes later (a daylight-saving change, its zone reset) is followed after as many trees.
 * <p>
 * Left alone: NT1 and NM1/NB1 trees (epoch milliseconds on the wire) and PT1 trees read in their domain's own zone
 * ({@code tcp.pt1.zoneByDomain}). One instance per connection, used only on the ingest thread that owns it; no
 * allocation, no lock.
 */
public final class Pt1ClockOffset
{
    /** Trees in a row that must agree on an offset before it is adopted. */
    public static final int TREES_TO_ADOPT = 3;
    /** How far from a whole number of hours a tree may be and still count for that offset. */
    public static final long TOLERANCE_MILLIS = 5 * 60_000L;
    /** The largest offset adopted: zones span UTC−12 to UTC+14, so two of them are at most 26 hours apart. */
    public static final int MAX_HOURS = 26;

    /** The longest a tree is held for its connection's offset before it goes on as it is. */
    public static final long HOLD_MILLIS = 5_000;

    /** A tree that names no offset: in an open hour, or not a whole number of hours off. */
    private static final int NONE = 0;

    private final PooledTree[] held = new PooledTree[TREES_TO_ADOPT - 1];
    private int heldCount;
    private boolean pending;

    private int offsetHours;
    private long shiftMillis;
    private int candidate = NONE;
    private int run;
    private int appliedHours;

    /**
     * Judges a decoded tree and moves it by the connection's offset.
     *
     * @param tree       a decoded tree; only PT1 ones are looked at.
     * @param domainZone true when it was read in its domain's own zone (then it is left alone).
     * @param clock      what "now" is (the dispatcher's clock).
     * @return true when this tree made the connection adopt a new offset ({@link #offsetHours()}; 0 again when a
     *         client's clock came back).
     */
    public boolean correct(final FlatTree tree, final boolean domainZone, final Clock clock)
    {
        pending = false;
        if (tree.codec() != FlatTree.CODEC_PT1 || domainZone || tree.size() == 0)
        {
            appliedHours = 0;
            return false;
        }
        final long root = tree.rootTimestamp() + shiftMillis;
        final long now = clock.millis();
        final int hours = HourWindow.classify(HourWindow.hourOf(root), now) == HourWindow.OPEN ? NONE :
            wholeHours(root - now);
        boolean adopted = false;
        if (hours == NONE || Math.abs(offsetHours + hours) > MAX_HOURS)
        {
            run = 0;
            candidate = NONE;
        }
        else
        {
            run = hours == candidate ? run + 1 : 1;
            candidate = hours;
            if (run == TREES_TO_ADOPT)
            {
                offsetHours += hours;
                shiftMillis = -offsetHours * HourWindow.HOUR;
                run = 0;
                candidate = NONE;
                adopted = true;
            }
            else
            {
                pending = true;
            }
        }
        if (shiftMillis != 0)
        {
            tree.shiftTimestamps(shiftMillis);
        }
        appliedHours = offsetHours;
        return adopted;
    }

    /**
     * @return true when the tree just judged names an offset that its run has not adopted yet: the caller holds it
     *         ({@link #hold}) rather than let it be counted in the wrong hour.
     */
    public boolean pending()
    {
        return pending;
    }

    /**
     * @return true when the tree just judged began a new run (any tree held is of an earlier, broken one).
     */
    public boolean runStarted()
    {
        return pending && run == 1;
    }

    /**
     * Keeps a pending tree until its run decides.
     *
     * @param tree the tree {@link #pending()} was true for.
     */
    public void hold(final PooledTree tree)
    {
        held[heldCount++] = tree;
    }

    /**
     * @return how many trees are held.
     */
    public int heldCount()
    {
        return heldCount;
    }

    /**
     * @return the oldest held tree, no longer held; null when none is.
     */
    public PooledTree takeHeld()
    {
        if (heldCount == 0)
        {
            return null;
        }
        final PooledTree oldest = held[0];
        for (int i = 1; i < heldCount; i++)
        {
            held[i - 1] = held[i];
        }
        held[--heldCount] = null;
        return oldest;
    }

    /**
     * @param skewMillis a root timestamp minus now.
     * @return the whole number of hours it is, when it is within {@link #TOLERANCE_MILLIS} of one; else 0.
     */
    static int wholeHours(final long skewMillis)
    {
        final long hours = Math.floorDiv(skewMillis + HourWindow.HOUR / 2, HourWindow.HOUR);
        final long rest = skewMillis - hours * HourWindow.HOUR;
        return Math.abs(rest) <= TOLERANCE_MILLIS && Math.abs(hours) <= MAX_HOURS ? (int)hours : NONE;
    }

    /**
     * @return the offset the last {@link #correct} call moved its tree by (0 when it left it alone): the journal
     *         keeps it, so a replayed tree is moved the same way.
     */
    public int appliedHours()
    {
        return appliedHours;
    }

    /**
     * @return how many hours this connection's PT1 timestamps are off the zone they are read in (negative: behind,
     *         e.g. −8 for a client writing UTC read as GMT+8); 0 until an offset is adopted.
     */
    public int offsetHours()
    {
        return offsetHours;
    }
}
