package io.cheetah.kafka.aggregate;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.storage.ReportEnvelope;

import javax.sql.DataSource;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The aggregators' checkpoints in MySQL (tables {@code kafka_checkpoint} and {@code kafka_checkpoint_part},
 * sql/migrations/V7 and V8): per partition of the trees' topic, the reports of the open hours of its domains and the
 * offset of the first record they do not hold. The reports go in parts of at most {@link #PART_BYTES}, each its own
 * statement, because a busy hour's outgrow MySQL's largest packet. A round's partitions are written in one
 * transaction, so a crash leaves every partition at one round or the one before, each consistent with its offset.
 * Written and read by the {@link Aggregator}'s thread.
 */
public final class PartitionCheckpoints
{
    /** The most bytes of a checkpoint in one row, far below MySQL's default max_allowed_packet (64 MB). */
    static final int PART_BYTES = 4 * 1024 * 1024;

    private final DataSource db;
    private final String group;
    private final String topic;
    private final String writer;
    private final Map<String, ReportFormat> formats;
    private final int partBytes;

    /**
     * A partition's checkpoint as read back.
     *
     * @param nextOffset the offset of the first record its reports do not hold.
     * @param reports    the reports of its domains' open hours when it was written.
     */
    public record Saved(long nextOffset, List<Report> reports)
    {
    }

    /**
     * @param db      the reports' database (storage.mysql).
     * @param group   the consumer group ({@code kafka.group}).
     * @param topic   the trees' topic ({@code kafka.topic}).
     * @param writer  this server's id, recorded with what it writes.
     * @param formats report formats by analyzer name.
     */
    public PartitionCheckpoints(final DataSource db, final String group, final String topic, final String writer,
        final Map<String, ReportFormat> formats)
    {
        this(db, group, topic, writer, formats, PART_BYTES);
    }

    /** As the public constructor, with parts of another size (tests: many parts from a few reports). */
    PartitionCheckpoints(final DataSource db, final String group, final String topic, final String writer,
        final Map<String, ReportFormat> formats, final int partBytes)
    {
        this.partBytes = partBytes;
        this.db = db;
        this.group = group;
        this.topic = topic;
        this.writer = writer;
        this.formats = Map.copyOf(formats);
    }

    /**
     * Writes the checkpoints of several partitions in one transaction.
     *
     * @param reports     per partition, the reports of its domains' open hours (a partition without any maps to an
     *                    empty list).
     * @param nextOffsets per partition, the offset of the first record those reports do not hold.
     * @param nowMillis   the time written with them.
     * @return the bytes of reports written.
     * @throws SQLException when the database refuses (nothing is written then).
     */
    public long save(final Map<Integer, List<Report>> reports, final Map<Integer, Long> nextOffsets,
        final long nowMillis) throws SQLException
    {
        try (Connection c = db.getConnection())
        {
            c.setAutoCommit(false);
            try (PreparedStatement header = c.prepareStatement("INSERT INTO kafka_checkpoint (consumer_group, " +
                "topic, partition_id, next_offset, written_by, written_ms, content) VALUES (?, ?, ?, ?, ?, ?, ?) " +
                "ON DUPLICATE KEY UPDATE next_offset = VALUES(next_offset), written_by = VALUES(written_by), " +
                "written_ms = VALUES(written_ms), content = VALUES(content)");
                 PreparedStatement part = c.prepareStatement("INSERT INTO kafka_checkpoint_part (consumer_group, " +
                     "topic, partition_id, part_no, content) VALUES (?, ?, ?, ?, ?) " +
                     "ON DUPLICATE KEY UPDATE content = VALUES(content)");
                 PreparedStatement trim = c.prepareStatement("DELETE FROM kafka_checkpoint_part " +
                     "WHERE consumer_group = ? AND topic = ? AND partition_id = ? AND part_no >= ?"))
            {
                long written = 0;
                for (final Map.Entry<Integer, Long> e : nextOffsets.entrySet())
                {
                    final int partition = e.getKey();
                    key(header, partition);
                    header.setLong(4, e.getValue());
                    header.setString(5, writer);
                    header.setLong(6, nowMillis);
                    header.setBytes(7, new byte[0]);
                    header.executeUpdate();
                    final byte[] bytes = encode(reports.getOrDefault(partition, List.of()));
                    written += bytes.length;
                    int parts = 0;
                    for (int off = 0; off < bytes.length; off += partBytes, parts++)
                    {
                        final int length = Math.min(partBytes, bytes.length - off);
                        key(part, partition);
                        part.setInt(4, parts);
                        part.setBinaryStream(5, new ByteArrayInputStream(bytes, off, length), length);
                        part.executeUpdate();
                    }
                    key(trim, partition);
                    trim.setInt(4, parts);
                    trim.executeUpdate();
                }
                c.commit();
                return written;
            }
            catch (final SQLException | RuntimeException e)
            {
                c.rollback();
                throw e;
            }
        }
    }

    /**
     * @param partition a partition of the topic.
     * @return its last checkpoint, or null when none was written.
     * @throws SQLException when the database cannot be read.
     * @throws IOException  when the checkpoint is damaged or of an unknown format.
     */
    public Saved load(final int partition) throws SQLException, IOException
    {
        try (Connection c = db.getConnection())
        {
            // one snapshot for header and parts: a round written meanwhile is seen whole or not at all
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try
            {
                final Saved saved = load(c, partition);
                c.commit();
                return saved;
            }
            catch (final SQLException | IOException | RuntimeException e)
            {
                c.rollback();
                throw e;
            }
        }
    }

    private Saved load(final Connection c, final int partition) throws SQLException, IOException
    {
        final long nextOffset;
        final ByteArrayOutputStream content = new ByteArrayOutputStream();
        try (PreparedStatement ps = c.prepareStatement("SELECT next_offset, content FROM kafka_checkpoint " +
            "WHERE consumer_group = ? AND topic = ? AND partition_id = ?"))
        {
            key(ps, partition);
            try (ResultSet rs = ps.executeQuery())
            {
                if (!rs.next())
                {
                    return null;
                }
                nextOffset = rs.getLong(1);
                // a round written before V8 holds its reports here
                content.writeBytes(rs.getBytes(2));
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT part_no, content FROM kafka_checkpoint_part " +
            "WHERE consumer_group = ? AND topic = ? AND partition_id = ? ORDER BY part_no"))
        {
            key(ps, partition);
            try (ResultSet rs = ps.executeQuery())
            {
                for (int expected = 0; rs.next(); expected++)
                {
                    if (rs.getInt(1) != expected)
                    {
                        throw new IOException("kafka_checkpoint_part of partition " + partition + ": part " +
                            expected + " missing");
                    }
                    content.writeBytes(rs.getBytes(2));
                }
            }
        }
        return new Saved(nextOffset, decode(content.toByteArray()));
    }

    /** Binds a partition's key, the statement's first three parameters. */
    private void key(final PreparedStatement ps, final int partition) throws SQLException
    {
        ps.setString(1, group);
        ps.setString(2, topic);
        ps.setInt(3, partition);
    }

    private byte[] encode(final List<Report> reports)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteBuffer length = ByteBuffer.allocate(Integer.BYTES);
        for (final Report r : reports)
        {
            final ReportFormat format = formats.get(r.analyzer());
            if (format == null)
            {
                throw new IllegalArgumentException("no report format for analyzer " + r.analyzer());
            }
            final byte[] envelope = ReportEnvelope.encode(format, r);
            out.write(length.clear().putInt(envelope.length).array(), 0, Integer.BYTES);
            out.write(envelope, 0, envelope.length);
        }
        return out.toByteArray();
    }

    private List<Report> decode(final byte[] content) throws IOException
    {
        final List<Report> reports = new ArrayList<>();
        final ByteBuffer in = ByteBuffer.wrap(content);
        while (in.hasRemaining())
        {
            if (in.remaining() < Integer.BYTES)
            {
                throw new IOException("kafka_checkpoint content cut short");
            }
            final int length = in.getInt();
            if (length < 0 || length > in.remaining())
            {
                throw new IOException("kafka_checkpoint content damaged: a report of " + length + " bytes, " +
                    in.remaining() + " left");
            }
            final byte[] envelope = new byte[length];
            in.get(envelope);
            reports.add(ReportEnvelope.decode(formats, envelope));
        }
        return reports;
    }
}
