package io.cheetah.bench.analysis;

import io.cheetah.message.FlatTree;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The baseline of the memory comparison: the same Transaction figures held the way CAT's generated model holds
 * them (docs/protocol.md §4.2.1), as plain objects in {@link LinkedHashMap}s with boxed keys: machine → type → name,
 * per-minute {@code Range} objects, fine-bucket {@code allDurations} maps (type, name and per minute, as for CAT's
 * tp-statistic types), the power-of-two distribution and status codes. Used only by {@link ReportMemory}.
 */
final class ObjectModelReport
{
    final Map<String, Map<String, Entry>> machines = new LinkedHashMap<>();

    static final class Range
    {
        long count;
        long fails;
        double sum;
        double min = 86_400_000;
        double max = -1;
        final Map<Integer, Integer> allDurations = new LinkedHashMap<>();
    }

    static class Entry
    {
        long totalCount;
        long failCount;
        double sum;
        double sum2;
        double min = 86_400_000;
        double max = -1;
        String successMessageUrl;
        String failMessageUrl;
        String longestMessageUrl;
        final Map<Integer, Range> ranges = new LinkedHashMap<>();
        final Map<Integer, Integer> allDurations = new LinkedHashMap<>();
        Map<Integer, Integer> durations;
        Map<String, Integer> statusCodes;
        Map<String, Entry> names;
    }

    void process(final FlatTree tree)
    {
        final Map<String, Entry> types = machines.computeIfAbsent(tree.ip(), k -> new LinkedHashMap<>());
        for (int i = 0; i < tree.size(); i++)
        {
            if (!tree.isTransaction(i))
            {
                continue;
            }
            final Entry type = types.computeIfAbsent(tree.type(i), k -> new Entry());
            if (type.names == null)
            {
                type.names = new LinkedHashMap<>();
            }
            final String name = "URL".equals(tree.type(i)) ? tree.name(i).replaceAll("/[0-9.,-]+(?=/|$)", "/{num}") :
                tree.name(i);
            final Entry n = type.names.computeIfAbsent(name, k -> new Entry());
            final long d = tree.durationMillis(i);
            final boolean failed = !tree.isSuccess(i);
            final int minute = (int)(tree.timestamp(i) / 60000 % 60);
            add(type, d, failed, minute, tree);
            add(n, d, failed, minute, tree);
            if (n.durations == null)
            {
                n.durations = new LinkedHashMap<>();
            }
            n.durations.merge(pow2(d), 1, Integer::sum);
            if (failed)
            {
                if (n.statusCodes == null)
                {
                    n.statusCodes = new LinkedHashMap<>();
                }
                n.statusCodes.merge(tree.status(i), 1, Integer::sum);
            }
        }
    }

    private static void add(final Entry e, final long d, final boolean failed, final int minute, final FlatTree tree)
    {
        e.totalCount++;
        e.failCount += failed ? 1 : 0;
        e.sum += d;
        e.sum2 += (double)d * d;
        if (e.successMessageUrl == null && !failed)
        {
            e.successMessageUrl = tree.messageId();
        }
        if (e.failMessageUrl == null && failed)
        {
            e.failMessageUrl = tree.messageId();
        }
        if (d > e.max)
        {
            e.max = d;
            e.longestMessageUrl = tree.messageId();
        }
        e.min = Math.min(e.min, d);
        final int fine = fine(d);
        e.allDurations.merge(fine, 1, Integer::sum);
        final Range r = e.ranges.computeIfAbsent(minute, k -> new Range());
        r.count++;
        r.fails += failed ? 1 : 0;
        r.sum += d;
        r.min = Math.min(r.min, d);
        r.max = Math.max(r.max, d);
        r.allDurations.merge(fine, 1, Integer::sum);
    }

    private static int pow2(final long d)
    {
        int p = 1;
        while (p < d && p < 65536)
        {
            p <<= 1;
        }
        return p;
    }

    /** CAT's computeDuration fine buckets (docs/protocol.md §4.2.4). */
    private static int fine(final long d)
    {
        if (d < 1)
        {
            return 1;
        }
        if (d < 20)
        {
            return (int)d;
        }
        if (d < 200)
        {
            return (int)(d - d % 5);
        }
        if (d < 500)
        {
            return (int)(d - d % 20);
        }
        if (d < 2000)
        {
            return (int)(d - d % 50);
        }
        if (d < 20000)
        {
            return (int)(d - d % 500);
        }
        if (d < 1000000)
        {
            return (int)(d - d % 10000);
        }
        int p = 524288;
        while (p < d && p < 3600000)
        {
            p <<= 1;
        }
        return Math.min(p, 3600000);
    }
}
