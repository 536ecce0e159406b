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

    /** @return the member these checkpoints are written by ({@code storage.serverId}). */
    public String writer()
    {
        return writer;
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
        return save(reports, nextOffsets, null, nowMillis);
    }

    /**
     * Writes the checkpoints of several partitions and this member's server-wide reports in one transaction, so
     * both hold exactly the records before the partitions' offsets.
     *
     * @param reports     per partition, the reports of its domains' open hours.
     * @param nextOffsets per partition, the offset of the first record those reports do not hold.
     * @param member      this member's open reports of the server-wide analyzers, or null to leave them as they are.
     * @param nowMillis   the time written with them.
     * @return the bytes of reports written.
     * @throws SQLException when the database refuses (nothing is written then).
     */
    public long save(final Map<Integer, List<Report>> reports, final Map<Integer, Long> nextOffsets,
        final List<Report> member, final long nowMillis) throws SQLException
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
                if (member != null)
                {
                    written += saveMember(c, member, nowMillis);
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

    private long saveMember(final Connection c, final List<Report> reports, final long nowMillis)
        throws SQLException
    {
        final byte[] bytes = encode(reports);
        try (PreparedStatement part = c.prepareStatement("INSERT INTO kafka_member_checkpoint (consumer_group, " +
            "topic, member, part_no, written_ms, content) VALUES (?, ?, ?, ?, ?, ?) " +
            "ON DUPLICATE KEY UPDATE written_ms = VALUES(written_ms), content = VALUES(content)");
             PreparedStatement trim = c.prepareStatement("DELETE FROM kafka_member_checkpoint " +
                 "WHERE consumer_group = ? AND topic = ? AND member = ? AND part_no >= ?"))
        {
            // an empty list still writes part 0 (empty): the member's round is on record
            int parts = 0;
            for (int off = 0; parts == 0 || off < bytes.length; off += partBytes, parts++)
            {
                final int length = Math.min(partBytes, bytes.length - off);
                member(part, writer);
                part.setInt(4, parts);
                part.setLong(5, nowMillis);
                part.setBinaryStream(6, new ByteArrayInputStream(bytes, off, length), length);
                part.executeUpdate();
            }
            member(trim, writer);
            trim.setInt(4, parts);
            trim.executeUpdate();
        }
        return bytes.length;
    }

    /**
     * A member's server-wide reports as its last round wrote them.
     *
     * @param writtenMillis when that round was written (what {@link #forgetMember} checks).
     * @param reports       its open reports of the server-wide analyzers then.
     */
    public record MemberSaved(long writtenMillis, List<Report> reports)
    {
    }

    /**
     * @param member a member's {@code storage.serverId}.
     * @return its server-wide reports as of its last round, or null when it has none on record.
     * @throws SQLException when the database cannot be read.
     * @throws IOException  when they are damaged or of an unknown format.
     */
    public MemberSaved loadMember(final String member) throws SQLException, IOException
    {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT part_no, written_ms, content FROM " +
                 "kafka_member_checkpoint WHERE consumer_group = ? AND topic = ? AND member = ? ORDER BY part_no"))
        {
            member(ps, member);
            final ByteArrayOutputStream content = new ByteArrayOutputStream();
            long written = -1;
            try (ResultSet rs = ps.executeQuery())
            {
                for (int expected = 0; rs.next(); expected++)
                {
                    if (rs.getInt(1) != expected || written >= 0 && rs.getLong(2) != written)
                    {
                        throw new IOException("kafka_member_checkpoint of " + member + ": part " + expected +
                            " missing or of another round");
                    }
                    written = rs.getLong(2);
                    content.writeBytes(rs.getBytes(3));
                }
            }
            return written < 0 ? null : new MemberSaved(written, decode(content.toByteArray()));
        }
    }

    /**
     * @return the members with server-wide reports on record, this one included.
     * @throws SQLException when the database cannot be read.
     */
    public List<String> members() throws SQLException
    {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT DISTINCT member FROM kafka_member_checkpoint " +
                 "WHERE consumer_group = ? AND topic = ? ORDER BY member"))
        {
            ps.setString(1, group);
            ps.setString(2, topic);
            final List<String> members = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery())
            {
                while (rs.next())
                {
                    members.add(rs.getString(1));
                }
            }
            return members;
        }
    }

    /**
     * Removes a member's server-wide reports, unless a later round of it was written since they were read.
     *
     * @param member        the member.
     * @param writtenMillis when the round read was written.
     * @throws SQLException when the database refuses.
     */
    public void forgetMember(final String member, final long writtenMillis) throws SQLException
    {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("DELETE FROM kafka_member_checkpoint WHERE consumer_group = ? " +
                 "AND topic = ? AND member = ? AND written_ms = ?"))
        {
            member(ps, member);
            ps.setLong(4, writtenMillis);
            ps.executeUpdate();
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

    /** Binds a member's key, the statement's first three parameters. */
    private void member(final PreparedStatement ps, final String member) throws SQLException
    {
        ps.setString(1, group);
        ps.setString(2, topic);
        ps.setString(3, member);
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
