package io.cheetah.client.transport;

import io.cheetah.message.Event;
import io.cheetah.message.Message;
import io.cheetah.message.MessageKind;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps the counts of the trees the router's {@code sample} leaves out, so the server's reports stay exact at any
 * sample rate: each transaction and event of a sampled-out tree is added to its (domain, type, name) aggregate on the
 * caller's thread, and the sender thread turns the aggregates into CAT's aggregated trees once a second
 * ({@code System/TransactionAggregator} holding {@code @count;fail;sumMs;duration,count|…} transactions,
 * {@code System/EventAggregator} holding {@code @count;fail} events, as CAT's own clients send them), which are never
 * sampled out themselves. Each counter is taken with {@code getAndSet(0)}, so an add racing a flush lands in this
 * flush or the next, never nowhere. Bounded: past {@link #MAX_KEYS} aggregates a sampled-out tree is sent whole
 * instead ({@link #fold} returns false).
 */
final class SampleFolder
{
    /** Most (domain, kind, type, name) aggregates kept. */
    static final int MAX_KEYS = 10_000;
    /** CAT's coarser duration steps: below {@code [0]} ms, round down to a multiple of {@code [1]}. */
    private static final int[][] STEPS = {{200, 5}, {500, 20}, {2_000, 50}, {20_000, 500}, {1_000_000, 10_000}};

    private final Map<Key, Aggregate> aggregates = new ConcurrentHashMap<>();
    private final Map<String, MessageTree> headers = new ConcurrentHashMap<>();

    /** One aggregate's identity. */
    private record Key(String domain, boolean transaction, String type, String name)
    {
    }

    /** Counters of one aggregate, added to by any caller thread. */
    private static final class Aggregate
    {
        final AtomicLong count = new AtomicLong();
        final AtomicLong fails = new AtomicLong();
        final AtomicLong sumMillis = new AtomicLong();
        final Map<Integer, AtomicLong> durations = new ConcurrentHashMap<>();
    }

    /**
     * Adds a sampled-out tree's messages to their aggregates (any thread).
     *
     * @param tree the tree.
     * @return false when the aggregates are full and the tree was not folded (the caller sends it).
     */
    boolean fold(final MessageTree tree)
    {
        if (tree.root() == null || aggregates.size() >= MAX_KEYS)
        {
            return false;
        }
        headers.putIfAbsent(tree.domain(), tree);
        add(tree.domain(), tree.root());
        return true;
    }

    private void add(final String domain, final Message m)
    {
        if (m.kind() == MessageKind.TRANSACTION)
        {
            final TransactionMessage t = (TransactionMessage)m;
            final Aggregate a = aggregate(new Key(domain, true, t.type(), t.name()));
            final long millis = t.durationMicros() / 1000;
            a.count.incrementAndGet();
            if (!t.isSuccess())
            {
                a.fails.incrementAndGet();
            }
            a.sumMillis.addAndGet(millis);
            a.durations.computeIfAbsent(bucket(millis), k -> new AtomicLong()).incrementAndGet();
            for (final Message child : t.children())
            {
                add(domain, child);
            }
        }
        else if (m.kind() == MessageKind.EVENT)
        {
            final Aggregate a = aggregate(new Key(domain, false, m.type(), m.name()));
            a.count.incrementAndGet();
            if (!m.isSuccess())
            {
                a.fails.incrementAndGet();
            }
        }
        // heartbeats, metrics and traces are never in a sampled-out tree's count (heartbeats are not sampled)
    }

    private Aggregate aggregate(final Key key)
    {
        final Aggregate a = aggregates.get(key);
        return a != null ? a : aggregates.computeIfAbsent(key, k -> new Aggregate());
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
     * Takes everything folded so far as aggregated trees, one per domain and kind (sender thread).
     *
     * @param nowMillis the trees' time.
     * @return the trees (empty when nothing was folded since the last call).
     */
    List<MessageTree> drain(final long nowMillis)
    {
        final Map<String, TransactionMessage> transactions = new java.util.HashMap<>();
        final Map<String, TransactionMessage> events = new java.util.HashMap<>();
        for (final Map.Entry<Key, Aggregate> e : aggregates.entrySet())
        {
            final Key k = e.getKey();
            final Aggregate a = e.getValue();
            final long count = a.count.getAndSet(0);
            if (count == 0)
            {
                continue;
            }
            final long fails = a.fails.getAndSet(0);
            if (k.transaction())
            {
                final StringBuilder data = new StringBuilder(32).append('@').append(count).append(';').append(fails)
                    .append(';').append(a.sumMillis.getAndSet(0)).append(';');
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
                root(transactions, k.domain(), "TransactionAggregator", nowMillis).addChild(new TransactionMessage(
                    k.type(), k.name(), Message.SUCCESS, data.toString(), nowMillis, 0));
            }
            else
            {
                root(events, k.domain(), "EventAggregator", nowMillis).addChild(new Event(k.type(), k.name(),
                    Message.SUCCESS, "@" + count + ";" + fails, nowMillis));
            }
        }
        final List<MessageTree> out = new ArrayList<>();
        transactions.forEach((domain, root) -> out.add(tree(domain, root)));
        events.forEach((domain, root) -> out.add(tree(domain, root)));
        return out;
    }

    private static TransactionMessage root(final Map<String, TransactionMessage> roots, final String domain,
        final String name, final long nowMillis)
    {
        return roots.computeIfAbsent(domain, d -> new TransactionMessage("System", name, Message.SUCCESS, "",
            nowMillis, 0));
    }

    private MessageTree tree(final String domain, final TransactionMessage root)
    {
        final MessageTree header = headers.get(domain);
        return new MessageTree().domain(domain).hostname(header.hostname()).ipAddress(header.ipAddress())
            .threadGroupName("cat").threadId("0").threadName("cat-sender").root(root);
    }
}
