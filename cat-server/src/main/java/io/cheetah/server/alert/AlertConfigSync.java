package io.cheetah.server.alert;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.server.storage.mysql.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Keeps the running alert configuration in step with {@code alerting.catConfigDir} and, in a cluster, with the
 * other members: every minute the directory is read again and a change that parses is applied (one that does not is
 * logged, counted, and the running configuration kept); in a cluster a local change is published to MySQL's
 * {@code alert_config} as a new version, and a newer version published by another member is applied, so that a
 * change made on any member reaches every member within a minute. At start-up a member adopts the cluster's latest
 * version unless its own directory was changed after it was published (then its directory becomes the latest).
 * Called on the alerting thread ({@link AlertSchedule}).
 * <pre>
 *  catConfigDir ─(changed?)─▶ parse ─▶ apply ─▶ INSERT alert_config (version n+1)
 *  alert_config latest ─(newer than applied?)─▶ parse ─▶ apply
 * </pre>
 */
public final class AlertConfigSync
{
    private static final Logger LOG = LoggerFactory.getLogger(AlertConfigSync.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final DataSource db;
    private final String member;
    private final Consumer<CatAlertConfig> apply;
    private final LongAdder reloads = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private String localFingerprint;
    private String appliedFingerprint;
    private long appliedVersion;

    /**
     * @param dir     CAT's exported configuration.
     * @param running the files the running configuration was read from at start-up.
     * @param db      the cluster's MySQL, or null outside a cluster.
     * @param member  this member's id (the author of the versions it publishes).
     * @param apply   takes a new configuration (on the calling thread).
     */
    public AlertConfigSync(final Path dir, final Map<String, String> running, final DataSource db, final String member,
        final Consumer<CatAlertConfig> apply)
    {
        this.dir = dir;
        this.db = db;
        this.member = member;
        this.apply = apply;
        this.localFingerprint = fingerprint(running);
        this.appliedFingerprint = localFingerprint;
    }

    /**
     * In a cluster, agrees with the other members once at start-up: publishes this directory when the cluster has
     * no version yet or the directory changed after the latest was published, else adopts the latest.
     */
    public void start()
    {
        if (db == null)
        {
            return;
        }
        try
        {
            final long[] latest = latest();
            if (latest != null && appliedFingerprint.equals(fingerprintOf(latest[0])))
            {
                appliedVersion = latest[0];
            }
            else if (latest == null || newestChange() > latest[1])
            {
                publish(CatAlertConfig.files(dir));
            }
            else
            {
                adopt(latest[0]);
            }
        }
        catch (final SQLException | IOException | RuntimeException e)
        {
            errors.increment();
            LOG.warn("alerting: the cluster's alert configuration cannot be read at start-up: {}", e.getMessage());
        }
    }

    /** Applies a change of the directory or a newer version of the cluster's; once a minute. */
    public void refresh()
    {
        try
        {
            final Map<String, String> files = CatAlertConfig.files(dir);
            final String fp = fingerprint(files);
            if (!fp.equals(localFingerprint))
            {
                localFingerprint = fp;
                if (!fp.equals(appliedFingerprint) && applied(files, fp, "the directory") && db != null)
                {
                    publish(files);
                }
            }
        }
        catch (final IllegalArgumentException e)
        {
            errors.increment();
            LOG.warn("alerting.catConfigDir cannot be read, the running configuration is kept: {}", e.getMessage());
        }
        catch (final SQLException | IOException e)
        {
            errors.increment();
            LOG.warn("alerting: a changed configuration was applied here but not published: {}", e.getMessage());
        }
        if (db == null)
        {
            return;
        }
        try
        {
            final long[] latest = latest();
            if (latest != null && latest[0] > appliedVersion)
            {
                adopt(latest[0]);
            }
        }
        catch (final SQLException | IOException e)
        {
            errors.increment();
            LOG.warn("alerting: the cluster's alert configuration cannot be read: {}", e.getMessage());
        }
    }

    private boolean applied(final Map<String, String> files, final String fp, final String from)
    {
        final CatAlertConfig parsed;
        try
        {
            parsed = CatAlertConfig.parse(files);
        }
        catch (final IllegalArgumentException e)
        {
            errors.increment();
            LOG.warn("alerting: the configuration from {} is refused, the running one is kept: {}", from,
                e.getMessage());
            return false;
        }
        apply.accept(parsed);
        appliedFingerprint = fp;
        reloads.increment();
        LOG.info("alerting: configuration from {} applied", from);
        return true;
    }

    private void adopt(final long version) throws SQLException, IOException
    {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT fingerprint, files, author FROM alert_config WHERE " +
                 "version = ?"))
        {
            ps.setLong(1, version);
            try (ResultSet rs = ps.executeQuery())
            {
                if (!rs.next())
                {
                    return;
                }
                appliedVersion = version;
                if (!rs.getString(1).equals(appliedFingerprint))
                {
                    final Map<String, String> files = JSON.readValue(rs.getString(2), new TypeReference<>()
                    {
                    });
                    applied(files, rs.getString(1), "version " + version + " of " + rs.getString(3));
                }
            }
        }
    }

    private void publish(final Map<String, String> files) throws SQLException, IOException
    {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO alert_config (fingerprint, files, author, " +
                 "created_ms) VALUES (?, ?, ?, " + Database.NOW_MS + ")", java.sql.Statement.RETURN_GENERATED_KEYS))
        {
            ps.setString(1, fingerprint(files));
            ps.setString(2, JSON.writeValueAsString(new TreeMap<>(files)));
            ps.setString(3, member);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys())
            {
                if (keys.next())
                {
                    appliedVersion = Math.max(appliedVersion, keys.getLong(1));
                }
            }
        }
        LOG.info("alerting: configuration published to the cluster as version {}", appliedVersion);
    }

    /** @return the latest version and its creation time (database epoch ms), or null when there is none. */
    private long[] latest() throws SQLException
    {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT version, created_ms FROM alert_config ORDER BY " +
                 "version DESC LIMIT 1");
             ResultSet rs = ps.executeQuery())
        {
            return rs.next() ? new long[] {rs.getLong(1), rs.getLong(2)} : null;
        }
    }

    private String fingerprintOf(final long version) throws SQLException
    {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT fingerprint FROM alert_config WHERE version = ?"))
        {
            ps.setLong(1, version);
            try (ResultSet rs = ps.executeQuery())
            {
                return rs.next() ? rs.getString(1) : "";
            }
        }
    }

    private long newestChange() throws IOException
    {
        long newest = 0;
        try (java.util.stream.Stream<Path> all = Files.walk(dir, 2))
        {
            for (final Path p : (Iterable<Path>)all::iterator)
            {
                newest = Math.max(newest, Files.getLastModifiedTime(p).toMillis());
            }
        }
        return newest;
    }

    /**
     * @param files a configuration's files.
     * @return a SHA-256 of them, in name order.
     */
    static String fingerprint(final Map<String, String> files)
    {
        try
        {
            final MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (final Map.Entry<String, String> f : new TreeMap<>(files).entrySet())
            {
                sha.update(f.getKey().getBytes(StandardCharsets.UTF_8));
                sha.update((byte)0);
                sha.update(f.getValue().getBytes(StandardCharsets.UTF_8));
                sha.update((byte)0);
            }
            return HexFormat.of().formatHex(sha.digest());
        }
        catch (final NoSuchAlgorithmException e)
        {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /** @return configurations applied after start-up (from the directory or the cluster). */
    public long reloads()
    {
        return reloads.sum();
    }

    /** @return configurations refused, or that could not be read or published. */
    public long errors()
    {
        return errors.sum();
    }

    /** @return the cluster version applied (0 outside a cluster or before any). */
    public long version()
    {
        return appliedVersion;
    }
}
