package io.cheetah.kafka.aggregate;

import io.cheetah.analysis.Report;
import io.cheetah.kafka.edge.TreeRecord;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.dispatch.AnalyzerSlot;
import io.cheetah.server.dispatch.Dispatcher;
import io.cheetah.server.ingest.TreeFeed;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.state.StateReport;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * A Kafka aggregator: one consumer of group {@code kafka.group} on its own thread, feeding the records of the
 * partitions Kafka assigns it into the server's rings, and checkpointing, every {@code kafka.aggregator.
 * checkpointSeconds}, each owned partition's open hours together with the offset they cover ({@link
 * PartitionCheckpoints}); the offsets are committed to Kafka only once that is durable.
 * <pre>
 *  poll ─▶ TreeFeed ─▶ rings ─▶ analyzers          every period: COLLECT (in band) ─▶ split by partition of the
 *    ▲                                                  domain ─▶ MySQL (one transaction) ─▶ commitSync(offsets)
 *    └─ rebalance: checkpoint what is owned, FORGET, restore every owned partition's checkpoint, seek to its offset
 * </pre>
 * A domain's trees all come through one partition (the edge keys them by domain), so the reports of the analyzers
 * that file a tree under its own domain are that partition's state. The server-wide analyzers (Top, Storage, Cross,
 * Dependency) gather every domain into reports of their own: they are this member's state, checkpointed in the same
 * round (so they hold exactly the records before the partitions' offsets), restored when it starts again, and closed
 * by a live aggregator ({@link DepartedMembers}) when it left without closing them. The records it reads again after
 * a rebalance (between a kept partition's checkpoint and where it had read) reach only the partitioned analyzers, so
 * they count nothing twice. State is per server and stays out of it.
 */
public final class Aggregator implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(Aggregator.class);
    private static final long RING_TIMEOUT_MILLIS = 60_000;
    /**
     * A periodic checkpoint round is followed by at least this many times its own duration before the next: a busy
     * hour's open reports grow to hundreds of MB (scripts/kafka-restore: 188 MB, 9.7 s, for an hour of 8 million std
     * trees), and rounds every checkpointSeconds would leave the thread no time to consume. Checkpoints then take
     * at most about a tenth of it, at the price of more records read again after a crash.
     */
    private static final int ROUND_SPACING = 10;

    private final CheetahServer server;
    private final PartitionCheckpoints checkpoints;
    private final String topic;
    private final long checkpointNanos;
    private final KafkaConsumer<byte[], byte[]> consumer;
    /** Bits of the analyzers whose reports are a partition's state. */
    private final long partitioned;
    /** Bits of the server-wide analyzers whose reports are this member's state (State, per server, aside). */
    private final long memberWide;
    /** Names of those analyzers. */
    private final Set<String> wide;
    private final DepartedMembers departed;
    private final Supplier<Set<String>> live;
    private final Thread thread;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean stopping;
    private volatile boolean halting;
    private volatile Throwable failure;

    /** Aggregator thread only from here on. */
    private final Set<Integer> owned = new TreeSet<>();
    /** Per kept partition, the offset up to which its records already reached the server-wide analyzers. */
    private final Map<Integer, Long> replayUntil = new HashMap<>();
    private int partitionCount;
    private long nextCheckpoint;
    /** The last closed hour whose departed members' rows were written. */
    private long departedUpTo = Long.MIN_VALUE;
    private TreeFeed feed;

    private final LongAdder records = new LongAdder();
    private final LongAdder badRecords = new LongAdder();
    private final LongAdder replayed = new LongAdder();
    private final LongAdder rebalances = new LongAdder();
    private final LongAdder restoredPartitions = new LongAdder();
    private final LongAdder restoreNanos = new LongAdder();
    private final LongAdder checkpointsWritten = new LongAdder();
    private final LongAdder checkpointsFailed = new LongAdder();
    private final LongAdder checkpointSpentNanos = new LongAdder();
    /** The time between periodic rounds now: checkpointSeconds, or more after a long round. */
    private volatile long intervalNanos;
    private volatile long checkpointBytes;
    private final LongAdder restoresFailed = new LongAdder();
    private final LongAdder commitsFailed = new LongAdder();
    private final LongAdder departedReports = new LongAdder();
    private final Map<Integer, Long> lag = new ConcurrentHashMap<>();
    private final Map<Integer, Long> read = new ConcurrentHashMap<>();
    private volatile Set<Integer> ownedNow = Set.of();

    /**
     * @param server             the running server whose rings the records feed.
     * @param checkpoints        where partitions' checkpoints are kept.
     * @param bootstrapServers   the brokers.
     * @param topic              the trees' topic.
     * @param group              the consumer group.
     * @param clientId           this consumer's client id.
     * @param checkpointSeconds  how often the owned partitions are checkpointed.
     * @param sessionTimeoutMillis how long the group waits for a silent member before its partitions move.
     * @param departed           closes the hours of members that left without.
     * @param live               the ids of the aggregators live now (cluster_member).
     */
    public Aggregator(final CheetahServer server, final PartitionCheckpoints checkpoints,
        final String bootstrapServers, final String topic, final String group, final String clientId,
        final int checkpointSeconds, final int sessionTimeoutMillis, final DepartedMembers departed,
        final Supplier<Set<String>> live)
    {
        this.server = server;
        this.checkpoints = checkpoints;
        this.departed = departed;
        this.live = live;
        this.topic = topic;
        this.checkpointNanos = TimeUnit.SECONDS.toNanos(checkpointSeconds);
        this.intervalNanos = checkpointNanos;
        long bits = 0;
        long wideBits = 0;
        final Set<String> wideNames = new java.util.HashSet<>();
        for (final AnalyzerSlot slot : server.analyzers())
        {
            if (slot.type().format() == null || StateReport.ANALYZER.equals(slot.name()))
            {
                continue;
            }
            if (slot.type().serverWide())
            {
                wideBits |= 1L << slot.bit();
                wideNames.add(slot.name());
            }
            else
            {
                bits |= 1L << slot.bit();
            }
        }
        this.partitioned = bits;
        this.memberWide = wideBits;
        this.wide = Set.copyOf(wideNames);
        final Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        // offsets move only with checkpoints (commitSync after MySQL); a partition never checkpointed starts at
        // its beginning
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // a topic made by a metadata request would get the broker's default partitions, which then bind the domains
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, sessionTimeoutMillis);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Math.max(100, sessionTimeoutMillis / 4));
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2_000);
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.thread = new Thread(this::run, "cheetah-kafka-aggregator");
        this.thread.setDaemon(true);
    }

    /**
     * Joins the group and starts consuming on the aggregator's thread.
     *
     * @return this.
     */
    public Aggregator start()
    {
        thread.start();
        return this;
    }

    private void run()
    {
        try
        {
            feed = server.feed();
            partitionCount = awaitTopic();
            if (partitionCount == 0)
            {
                return; // stopped while waiting
            }
            restoreMember();
            consumer.subscribe(List.of(topic), new Rebalance());
            nextCheckpoint = System.nanoTime() + checkpointNanos;
            while (!stopping)
            {
                final Iterable<ConsumerRecord<byte[], byte[]>> batch;
                try
                {
                    batch = consumer.poll(Duration.ofMillis(200));
                }
                catch (final WakeupException e)
                {
                    continue;
                }
                for (final ConsumerRecord<byte[], byte[]> r : batch)
                {
                    take(r);
                }
                measureLag();
                if (System.nanoTime() - nextCheckpoint >= 0)
                {
                    final long start = System.nanoTime();
                    checkpoint(owned);
                    final long took = System.nanoTime() - start;
                    intervalNanos = interval(checkpointNanos, took);
                    nextCheckpoint = start + took + intervalNanos;
                }
                closeDepartedHours();
            }
            if (!halting)
            {
                checkpoint(owned);
            }
        }
        catch (final WakeupException e)
        {
            // stopping
        }
        catch (final RuntimeException | Error e)
        {
            failure = e;
            LOG.error("the Kafka aggregator stopped: {}", e.toString(), e);
        }
        finally
        {
            try
            {
                // a halt leaves the group as a crash would: its partitions move once the session times out
                consumer.close(halting ?
                    CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP)
                        .withTimeout(Duration.ZERO) :
                    CloseOptions.timeout(Duration.ofSeconds(10)));
            }
            catch (final RuntimeException e)
            {
                LOG.warn("closing the Kafka consumer failed: {}", e.toString());
            }
            done.countDown();
        }
    }

    /**
     * Waits until the brokers answer with the topic's partitions (brokers unreachable or the topic not created yet:
     * logged every attempt, retried every 5 s), since the domains' partitions are computed from their count.
     *
     * @return the topic's partition count, or 0 when stopped meanwhile.
     */
    private int awaitTopic()
    {
        while (!stopping)
        {
            try
            {
                final List<org.apache.kafka.common.PartitionInfo> partitions =
                    consumer.partitionsFor(topic, Duration.ofSeconds(30));
                if (partitions != null && !partitions.isEmpty())
                {
                    return partitions.size();
                }
                LOG.warn("Kafka topic {} has no partitions yet: create it (README, \"A Kafka cluster\"); retrying",
                    topic);
            }
            catch (final org.apache.kafka.common.errors.TimeoutException e)
            {
                LOG.warn("the Kafka brokers did not answer for topic {} within 30 s; retrying", topic);
            }
            try
            {
                Thread.sleep(5_000);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return 0;
            }
        }
        return 0;
    }

    private void take(final ConsumerRecord<byte[], byte[]> r)
    {
        final byte[] value = r.value();
        final long allowed;
        final Long until = replayUntil.isEmpty() ? null : replayUntil.get(r.partition());
        if (until != null && r.offset() < until)
        {
            allowed = partitioned;
            replayed.increment();
        }
        else
        {
            allowed = Dispatcher.ALL;
        }
        records.increment();
        if (!TreeRecord.valid(value))
        {
            badRecords.increment();
            return;
        }
        if (!feed.accept(value, TreeRecord.HEADER, value.length - TreeRecord.HEADER, TreeRecord.arrivalMillis(value),
            TreeRecord.pt1Hours(value), TreeRecord.wide(value), allowed))
        {
            badRecords.increment();
        }
    }

    /** Once per poll: how far each owned partition has been read, and how far behind its end that is. */
    private void measureLag()
    {
        for (final Integer p : owned)
        {
            final TopicPartition tp = new TopicPartition(topic, p);
            final java.util.OptionalLong l = consumer.currentLag(tp);
            if (l.isPresent())
            {
                lag.put(p, l.getAsLong());
            }
            read.put(p, consumer.position(tp));
        }
        lag.keySet().retainAll(owned);
        read.keySet().retainAll(owned);
    }

    /**
     * Checkpoints the given partitions: their domains' open hours with their consumer's positions, in MySQL, then
     * the offsets to Kafka. A failure is counted and logged; the partitions stay where their last checkpoint was.
     */
    private boolean checkpoint(final Set<Integer> partitions)
    {
        if (partitions.isEmpty() && memberWide == 0)
        {
            return true;
        }
        final long start = System.nanoTime();
        try
        {
            return writeCheckpoint(partitions);
        }
        finally
        {
            checkpointSpentNanos.add(System.nanoTime() - start);
        }
    }

    private boolean writeCheckpoint(final Set<Integer> partitions)
    {
        final List<Report> reports = server.collectOpenHours(partitioned | memberWide, RING_TIMEOUT_MILLIS);
        if (reports == null)
        {
            checkpointsFailed.increment();
            LOG.warn("checkpoint of partitions {} skipped: the rings did not answer within {} ms", partitions,
                RING_TIMEOUT_MILLIS);
            return false;
        }
        final Map<Integer, List<Report>> byPartition = new TreeMap<>();
        final List<Report> member = new ArrayList<>();
        for (final Report r : reports)
        {
            if (wide.contains(r.analyzer()))
            {
                member.add(r);
                continue;
            }
            final int p = partitionOf(r.domain());
            if (partitions.contains(p))
            {
                byPartition.computeIfAbsent(p, k -> new ArrayList<>()).add(r);
            }
            else
            {
                LOG.warn("a {} report of domain {} belongs to partition {}, which this aggregator does not own",
                    r.analyzer(), r.domain(), p);
            }
        }
        final Map<Integer, Long> positions = positions(partitions);
        try
        {
            checkpointBytes = checkpoints.save(byPartition, positions, member, System.currentTimeMillis());
        }
        catch (final java.sql.SQLException | RuntimeException e)
        {
            checkpointsFailed.increment();
            LOG.warn("checkpoint of partitions {} failed: {}", partitions, e.toString());
            return false;
        }
        checkpointsWritten.increment();
        final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        positions.forEach((p, at) -> offsets.put(new TopicPartition(topic, p), new OffsetAndMetadata(at)));
        try
        {
            consumer.commitSync(offsets);
        }
        catch (final RuntimeException e)
        {
            // the checkpoint holds the offsets too and a restore reads them from there; Kafka's committed offsets
            // only show the group's progress to its tools (and refuse commits while a rebalance is under way)
            commitsFailed.increment();
            LOG.debug("committing the offsets of partitions {} failed: {}", partitions, e.toString());
        }
        return true;
    }

    /**
     * @param configuredNanos {@code kafka.aggregator.checkpointSeconds}.
     * @param roundNanos      how long the last periodic round took.
     * @return the time until the next round starts, from the end of the last.
     */
    static long interval(final long configuredNanos, final long roundNanos)
    {
        return Math.max(configuredNanos, ROUND_SPACING * roundNanos);
    }

    /** The partition the edges' producer sends a domain's records to (Kafka's partitioner for a keyed record). */
    int partitionOf(final String domain)
    {
        return Utils.toPositive(Utils.murmur2(domain.getBytes(StandardCharsets.UTF_8))) % partitionCount;
    }

    /**
     * Drops the partitioned analyzers' open hours and restores every owned partition's checkpoint, seeking each to
     * the offset it covers. Records of a kept partition read before are read again, for the partitioned analyzers
     * only.
     */
    private void reload(final Map<Integer, Long> readUpTo)
    {
        final long start = System.nanoTime();
        if (!server.forgetOpenHours(partitioned, RING_TIMEOUT_MILLIS))
        {
            throw new IllegalStateException("the rings did not drop the open hours within " + RING_TIMEOUT_MILLIS +
                " ms");
        }
        replayUntil.clear();
        final List<Report> restore = new ArrayList<>();
        for (final Integer p : owned)
        {
            final TopicPartition tp = new TopicPartition(topic, p);
            PartitionCheckpoints.Saved saved = null;
            try
            {
                saved = checkpoints.load(p);
            }
            catch (final java.sql.SQLException | java.io.IOException e)
            {
                restoresFailed.increment();
                LOG.error("partition {}: its checkpoint cannot be read ({}); its open hours start empty from its " +
                    "committed offset", p, e.toString());
            }
            if (saved != null)
            {
                restore.addAll(saved.reports());
                consumer.seek(tp, saved.nextOffset());
                final Long before = readUpTo.get(p);
                if (before != null && before > saved.nextOffset())
                {
                    replayUntil.put(p, before);
                }
            }
            else
            {
                final OffsetAndMetadata committed = consumer.committed(Set.of(tp)).get(tp);
                if (committed != null)
                {
                    consumer.seek(tp, committed.offset());
                }
                else
                {
                    consumer.seekToBeginning(List.of(tp));
                }
                final Long before = readUpTo.get(p);
                if (before != null)
                {
                    replayUntil.put(p, before);
                }
            }
        }
        if (!server.restoreReports(restore, RING_TIMEOUT_MILLIS))
        {
            throw new IllegalStateException("the rings did not restore the partitions' checkpoints within " +
                RING_TIMEOUT_MILLIS + " ms");
        }
        restoredPartitions.add(owned.size());
        restoreNanos.add(System.nanoTime() - start);
        ownedNow = Set.copyOf(owned);
        LOG.info("partitions {} of {} restored ({} reports) in {} ms", owned, topic, restore.size(),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    /**
     * Before the group is joined: this member's server-wide reports from its last checkpoint round replace whatever
     * the server restored from its local checkpoint, which is older and not tied to the offsets the partitions'
     * owners read on from. Nothing on record (a first start, or a member whose hours were closed for it): they start
     * empty.
     */
    private void restoreMember()
    {
        if (memberWide == 0)
        {
            return;
        }
        PartitionCheckpoints.MemberSaved saved = null;
        try
        {
            saved = checkpoints.loadMember(checkpoints.writer());
        }
        catch (final java.sql.SQLException | java.io.IOException e)
        {
            restoresFailed.increment();
            LOG.error("this member's server-wide reports cannot be read ({}); they start empty", e.toString());
        }
        if (!server.forgetOpenHours(memberWide, RING_TIMEOUT_MILLIS) ||
            saved != null && !server.restoreReports(saved.reports(), RING_TIMEOUT_MILLIS))
        {
            throw new IllegalStateException("the rings did not restore the server-wide reports within " +
                RING_TIMEOUT_MILLIS + " ms");
        }
        if (saved != null)
        {
            LOG.info("{} server-wide reports of this member restored from its last checkpoint round",
                saved.reports().size());
        }
    }

    /** Once an hour has closed: the hours of members that left without closing them (counted; failures retried). */
    private void closeDepartedHours()
    {
        final long now = server.clock().millis();
        final long closed = HourWindow.lastClosedHour(now);
        if (closed <= departedUpTo || memberWide == 0)
        {
            return;
        }
        try
        {
            departedReports.add(departed.closeHours(live.get(), now));
            departedUpTo = closed;
        }
        catch (final java.sql.SQLException | java.io.IOException | RuntimeException e)
        {
            // tried again at the next poll
            LOG.warn("closing departed members' hours failed: {}", e.toString());
        }
    }

    private Map<Integer, Long> positions(final Collection<Integer> partitions)
    {
        final Map<Integer, Long> positions = new HashMap<>();
        for (final Integer p : partitions)
        {
            positions.put(p, consumer.position(new TopicPartition(topic, p)));
        }
        return positions;
    }

    /** Kafka's calls on a rebalance, on the aggregator's thread inside poll. */
    private final class Rebalance implements ConsumerRebalanceListener
    {
        @Override
        public void onPartitionsRevoked(final Collection<TopicPartition> revoked)
        {
            if (revoked.isEmpty())
            {
                return;
            }
            if (halting)
            {
                return; // as a crash: the new owners restore the last periodic checkpoint
            }
            rebalances.increment();
            // the new owners restore from this
            checkpoint(owned);
            final Map<Integer, Long> kept = positions(owned);
            revoked.forEach(tp -> owned.remove(tp.partition()));
            if (!stopping)
            {
                kept.keySet().retainAll(owned);
                reload(kept);
            }
        }

        @Override
        public void onPartitionsLost(final Collection<TopicPartition> lost)
        {
            rebalances.increment();
            // others own them now and restore their last checkpoint: this one must not write over it
            lost.forEach(tp -> owned.remove(tp.partition()));
            if (!stopping)
            {
                reload(positions(owned));
            }
        }

        @Override
        public void onPartitionsAssigned(final Collection<TopicPartition> assigned)
        {
            if (assigned.isEmpty())
            {
                return;
            }
            rebalances.increment();
            checkpoint(owned);
            final Map<Integer, Long> kept = positions(owned);
            assigned.forEach(tp -> owned.add(tp.partition()));
            reload(kept);
        }
    }

    /**
     * Stops like a crash (tests): no checkpoint, no commit, and the group is not told, so the partitions move only
     * once the session times out.
     */
    public void halt()
    {
        halting = true;
        stop();
    }

    private void stop()
    {
        stopping = true;
        consumer.wakeup();
        try
        {
            if (!done.await(60, TimeUnit.SECONDS))
            {
                LOG.warn("the Kafka aggregator did not stop within 60 s");
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Checkpoints the owned partitions, commits their offsets and leaves the group (its partitions move at once). */
    @Override
    public void close()
    {
        stop();
    }

    /** @return the partitions this aggregator owns now. */
    public Set<Integer> owned()
    {
        return ownedNow;
    }

    /** @return per owned partition, the records not read yet (as of the last fetch). */
    public Map<Integer, Long> lag()
    {
        return Map.copyOf(lag);
    }

    /**
     * @return per owned partition, the offset of the next record to read: every record before it has been handed to
     *         the rings (as of the last poll).
     */
    public Map<Integer, Long> positions()
    {
        return Map.copyOf(read);
    }

    /** @return records taken from Kafka. */
    public long records()
    {
        return records.sum();
    }

    /** @return records that were no tree record or whose frame did not decode (counted, skipped). */
    public long badRecords()
    {
        return badRecords.sum();
    }

    /** @return records read again after a rebalance, for the partitioned analyzers only. */
    public long replayed()
    {
        return replayed.sum();
    }

    /** @return rebalances that changed this aggregator's partitions. */
    public long rebalances()
    {
        return rebalances.sum();
    }

    /** @return partitions restored from their checkpoints (each reload counts every owned partition). */
    public long restoredPartitions()
    {
        return restoredPartitions.sum();
    }

    /** @return time spent restoring, ns. */
    public long restoreNanos()
    {
        return restoreNanos.sum();
    }

    /** @return checkpoint rounds written. */
    public long checkpointsWritten()
    {
        return checkpointsWritten.sum();
    }

    /** @return time spent checkpointing (collecting the open hours, writing them, committing), ns. */
    public long checkpointNanos()
    {
        return checkpointSpentNanos.sum();
    }

    /**
     * @return the time between periodic checkpoint rounds now: {@code kafka.aggregator.checkpointSeconds}, or ten
     *         times the last round's duration when that is longer.
     */
    public long checkpointIntervalNanos()
    {
        return intervalNanos;
    }

    /** @return the reports' bytes the last checkpoint round wrote. */
    public long checkpointBytes()
    {
        return checkpointBytes;
    }

    /** @return checkpoint rounds that failed (counted, logged). */
    public long checkpointsFailed()
    {
        return checkpointsFailed.sum();
    }

    /** @return partitions whose checkpoint could not be read. */
    public long restoresFailed()
    {
        return restoresFailed.sum();
    }

    /**
     * @return reports of departed members' closed hours this aggregator wrote (a row another aggregator or the
     *         member wrote first is left alone and not counted).
     */
    public long departedReports()
    {
        return departedReports.sum();
    }

    /** @return offset commits Kafka refused (during rebalances; the checkpoints hold the offsets anyway). */
    public long commitsFailed()
    {
        return commitsFailed.sum();
    }

    /** @return whether the aggregator's thread is consuming (false once it stopped or failed: {@link #failure}). */
    public boolean running()
    {
        return thread.isAlive() && !stopping;
    }

    /** @return what stopped the aggregator's thread, or null. */
    public Throwable failure()
    {
        return failure;
    }
}
