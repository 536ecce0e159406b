package io.cheetah.kafka.aggregate;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.storage.ReportEnvelope;

import javax.sql.DataSource;
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
 * The aggregators' checkpoints in MySQL (table {@code kafka_checkpoint}, sql/migrations/V7): per partition of the
 * trees' topic, the reports of the open hours of its domains and the offset of the first record they do not hold.
 * A round's partitions are written in one transaction, so a crash leaves every partition at one round or the one
 * before, each consistent with its offset. Written and read by the {@link Aggregator}'s thread.
 */
public final class PartitionCheckpoints
{
    private final DataSource db;
    private final String group;
    private final String topic;
    private final String writer;
    private final Map<String, ReportFormat> formats;

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
     * @throws SQLException when the database refuses (nothing is written then).
     */
    public void save(final Map<Integer, List<Report>> reports, final Map<Integer, Long> nextOffsets,
        final long nowMillis) throws SQLException
    {
        try (Connection c = db.getConnection())
        {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO kafka_checkpoint (consumer_group, topic, " +
                "partition_id, next_offset, written_by, written_ms, content) VALUES (?, ?, ?, ?, ?, ?, ?) " +
                "ON DUPLICATE KEY UPDATE next_offset = VALUES(next_offset), written_by = VALUES(written_by), " +
                "written_ms = VALUES(written_ms), content = VALUES(content)"))
            {
                for (final Map.Entry<Integer, Long> e : nextOffsets.entrySet())
                {
                    ps.setString(1, group);
                    ps.setString(2, topic);
                    ps.setInt(3, e.getKey());
                    ps.setLong(4, e.getValue());
                    ps.setString(5, writer);
                    ps.setLong(6, nowMillis);
                    ps.setBytes(7, encode(reports.getOrDefault(e.getKey(), List.of())));
                    ps.addBatch();
                }
                ps.executeBatch();
                c.commit();
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
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT next_offset, content FROM kafka_checkpoint " +
                 "WHERE consumer_group = ? AND topic = ? AND partition_id = ?"))
        {
            ps.setString(1, group);
            ps.setString(2, topic);
            ps.setInt(3, partition);
            try (ResultSet rs = ps.executeQuery())
            {
                if (!rs.next())
                {
                    return null;
                }
                return new Saved(rs.getLong(1), decode(rs.getBytes(2)));
            }
        }
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
