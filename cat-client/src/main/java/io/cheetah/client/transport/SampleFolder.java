package io.cheetah.client.transport;

import io.cheetah.message.Event;
import io.cheetah.message.Message;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps the counts of the trees the router's {@code sample} leaves out, so the server's reports stay exact at any
 * sample rate: each transaction and event of a sampled-out tree is added to its (type, name) aggregate on the
 * caller's thread, and the sender thread turns the aggregates into CAT's aggregated trees once a second
 * ({@code System/TransactionAggregator} holding {@code @count;fail;sumMs;duration,count|…} transactions,
 * {@code System/EventAggregator} holding {@code @count;fail} events, as CAT's own clients send them), which are never
 * sampled out themselves. Each counter is taken with {@code getAndSet(0)}, so an add racing a flush lands in this
 * flush or the next, never nowhere. Bounded: past {@link #MAX_KEYS} aggregates a sampled-out tree is sent whole
 * instead ({@link #fold} returns false). Looking an aggregate up allocates nothing (a map per type, then per name).
 */
final class SampleFolder implements SampledCounts
{
    /** Most (kind, type, name) aggregates kept. */
    static final int MAX_KEYS = 10_000;
    /** CAT's coarser duration steps: below {@code [0]} ms, round down to a multiple of {@code [1]}. */
    private static final int[][] STEPS = {{200, 5}, {500, 20}, {2_000, 50}, {20_000, 500}, {1_000_000, 10_000}};

    private final String domain;
    private final String hostname;
    private final String ip;
    private final Map<String, Map<String, Aggregate>> transactions = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Aggregate>> events = new ConcurrentHashMap<>();
    private final AtomicInteger keys = new AtomicInteger();

    /** Counters of one aggregate, added to by any caller thread. */
    private static final class Aggregate
    {
        final AtomicLong count = new AtomicLong();
        final AtomicLong fails = new AtomicLong();
        final AtomicLong sumMillis = new AtomicLong();
        final Map<Integer, AtomicLong> durations = new ConcurrentHashMap<>();
    }

    /**
     * @param domain   the client's domain (the aggregated trees' header).
     * @param hostname the client's host name.
     * @param ip       the client's address.
     */
    SampleFolder(final String domain, final String hostname, final String ip)
    {
        this.domain = domain;
        this.hostname = hostname;
        this.ip = ip;
    }

    /**
     * Adds a sampled-out tree's messages to their aggregates (any thread).
     *
     * @param tree the tree.
     * @return false when the aggregates are full and the tree was not folded (the caller sends it).
     */
    boolean fold(final OutboundTree tree)
    {
        if (keys.get() >= MAX_KEYS)
        {
            return false;
        }
        tree.foldInto(this);
        return true;
    }

    @Override
    public void transaction(final String type, final String name, final boolean success, final long durationMicros)
    {
        final Aggregate a = aggregate(transactions, type, name);
        final long millis = durationMicros / 1000;
        a.count.incrementAndGet();
        if (!success)
        {
            a.fails.incrementAndGet();
        }
        a.sumMillis.addAndGet(millis);
        a.durations.computeIfAbsent(bucket(millis), k -> new AtomicLong()).incrementAndGet();
    }

    @Override
    public void event(final String type, final String name, final boolean success)
    {
        final Aggregate a = aggregate(events, type, name);
        a.count.incrementAndGet();
        if (!success)
        {
            a.fails.incrementAndGet();
        }
    }

    private Aggregate aggregate(final Map<String, Map<String, Aggregate>> byType, final String type,
        final String name)
    {
        final String t = type == null ? "" : type;
        final String n = name == null ? "" : name;
        Map<String, Aggregate> byName = byType.get(t);
        if (byName == null)
        {
            byName = byType.computeIfAbsent(t, k -> new ConcurrentHashMap<>());
        }
        final Aggregate a = byName.get(n);
        return a != null ? a : byName.computeIfAbsent(n, k ->
        {
            keys.incrementAndGet();
            return new Aggregate();
        });
    }

    /**
     * The duration bucket of CAT's aggregators: exact below 20 ms, then coarser steps (5, 20, 50, 500, 10,000 ms),
     * then powers of two from 524,288 ms, capped at an hour.
     *
     * @param millis a duration.
     * @return its bucket, in ms.
     */
    static int bucket(final long millis)
    {
        final int d = (int)Math.min(Integer.MAX_VALUE, Math.max(0, millis));
        if (d < 1)
        {
            return 1;
        }
        if (d < 20)
        {
            return d;
        }
        for (final int[] s : STEPS)
        {
            if (d < s[0])
            {
                return d - d % s[1];
            }
        }
        if (d > 3_600_000)
        {
            return 3_600_000;
        }
        int k = 524_288;
        while (k < d)
        {
            k <<= 1;
        }
        return k;
    }

    /**
     * Takes everything folded so far as aggregated trees, one per kind (sender thread).
     *
     * @param nowMillis the trees' time.
     * @return the trees (empty when nothing was folded since the last call).
     */
    List<MessageTree> drain(final long nowMillis)
    {
        final List<MessageTree> out = new ArrayList<>(2);
        final TransactionMessage t = new TransactionMessage("System", "TransactionAggregator", Message.SUCCESS, "",
            nowMillis, 0);
        transactions.forEach((type, byName) -> byName.forEach((name, a) ->
        {
            final long count = a.count.getAndSet(0);
            if (count > 0)
            {
                final StringBuilder data = new StringBuilder(32).append('@').append(count).append(';')
                    .append(a.fails.getAndSet(0)).append(';').append(a.sumMillis.getAndSet(0)).append(';');
                String sep = "";
                for (final Map.Entry<Integer, AtomicLong> d : a.durations.entrySet())
                {
                    final long n = d.getValue().getAndSet(0);
                    if (n > 0)
                    {
                        data.append(sep).append(d.getKey()).append(',').append(n);
                        sep = "|";
                    }
                }
                data.append(';');
                t.addChild(new TransactionMessage(type, name, Message.SUCCESS, data.toString(), nowMillis, 0));
            }
        }));
        final TransactionMessage e = new TransactionMessage("System", "EventAggregator", Message.SUCCESS, "",
            nowMillis, 0);
        events.forEach((type, byName) -> byName.forEach((name, a) ->
        {
            final long count = a.count.getAndSet(0);
            if (count > 0)
            {
                e.addChild(new Event(type, name, Message.SUCCESS, "@" + count + ";" + a.fails.getAndSet(0),
                    nowMillis));
            }
        }));
        for (final TransactionMessage root : List.of(t, e))
        {
            if (!root.children().isEmpty())
            {
                out.add(new MessageTree().domain(domain).hostname(hostname).ipAddress(ip).threadGroupName("cat")
                    .threadId("0").threadName("cat-sender").root(root));
            }
        }
        return out;
    }
}
