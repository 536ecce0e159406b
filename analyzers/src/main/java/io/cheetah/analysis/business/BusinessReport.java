package io.cheetah.analysis.business;

import io.cheetah.analysis.Report;

import java.util.Comparator;
import java.util.List;

/**
 * An immutable hourly Business report of one domain, in CAT 3.1.0's shape ({@code business-report},
 * docs/protocol.md §4): per metric key its type (the status that counted it last: {@code C}, {@code T}, {@code S},
 * {@code S,C}, or the 4.0 kinds {@code COUNT}, {@code DURATION}, {@code SUM}) and per minute the count and sum
 * of what clients logged. Made by {@link BusinessAnalyzer}, {@link BusinessReportFormat#decode} and
 * {@link BusinessReportFormat#merge}; items in key order, segments in minute order.
 *
 * @param domain    the client domain.
 * @param hourStart epoch ms of the hour.
 * @param items     the metric keys.
 */
public record BusinessReport(String domain, long hourStart, List<Item> items) implements Report
{
    /** The analyzer name, also the report's name in storage and in {@code /cat/r/model/business/...}. */
    public static final String NAME = "business";

    /** Key order. */
    public static final Comparator<Item> ITEM_ORDER = Comparator.comparing(Item::id);

    /**
     * Copies the list.
     */
    public BusinessReport
    {
        items = List.copyOf(items);
    }

    @Override
    public String analyzer()
    {
        return NAME;
    }

    /**
     * @param id a metric key.
     * @return its item, or null.
     */
    public Item item(final String id)
    {
        for (final Item i : items)
        {
            if (i.id().equals(id))
            {
                return i;
            }
        }
        return null;
    }

    /**
     * One metric key.
     *
     * @param id       the key (the metric's name).
     * @param type     the status that counted it (CAT's {@code business-item type}).
     * @param segments its minutes with a count, in minute order.
     */
    public record Item(String id, String type, List<Segment> segments)
    {
        /**
         * Copies the list.
         */
        public Item
        {
            segments = List.copyOf(segments);
        }

        /**
         * @return the count over every minute.
         */
        public long count()
        {
            long n = 0;
            for (final Segment s : segments)
            {
                n += s.count();
            }
            return n;
        }

        /**
         * @return the sum over every minute.
         */
        public double sum()
        {
            double n = 0;
            for (final Segment s : segments)
            {
                n += s.sum();
            }
            return n;
        }
    }

    /**
     * One minute of a key.
     *
     * @param minute 0 to 59.
     * @param count  what the metrics counted (a count metric's value, one per duration or sum, the count of S,C).
     * @param sum    the value they added up to (the counts, durations in ms, or sums).
     */
    public record Segment(int minute, long count, double sum)
    {
        /**
         * @return sum / count, as CAT's segment {@code avg}; 0 when the count is 0.
         */
        public double avg()
        {
            return count == 0 ? 0 : sum / count;
        }
    }
}
