package io.cheetah.server.storage.mysql;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Brings a database to the schema this code expects, at start-up, before anything else touches it: applies the
 * migrations listed in {@code /sql/migrations/migrations.list} (the repository's {@code sql/migrations}, packaged
 * onto the classpath) whose version is above the one recorded in {@code schema_version}. Runs under a named lock
 * so servers of a cluster may start together; applying twice changes nothing. A database newer than the list
 * stops start-up with {@link SchemaTooNewException}.
 */
public final class SchemaMigrator
{
    private static final Logger LOG = LoggerFactory.getLogger(SchemaMigrator.class);
    private static final String ROOT = "/sql/migrations/";
    private static final Pattern NAME = Pattern.compile("V(\\d+)__([A-Za-z0-9_]+)\\.sql");
    private static final String LOCK = "cheetah_schema_migration";

    private final List<Migration> migrations;

    /**
     * One migration file.
     *
     * @param version     its version.
     * @param description from the file name.
     * @param sql         its statements.
     */
    public record Migration(int version, String description, String sql)
    {
    }

    /**
     * @param migrations the migrations in version order.
     */
    public SchemaMigrator(final List<Migration> migrations)
    {
        this.migrations = List.copyOf(migrations);
    }

    /**
     * @return a migrator for the migrations on the classpath.
     * @throws IOException when the list or a file is missing or badly named.
     */
    public static SchemaMigrator fromClasspath() throws IOException
    {
        final List<Migration> list = new ArrayList<>();
        int last = 0;
        for (final String line : resource("migrations.list").split("\n"))
        {
            final String name = line.trim();
            if (name.isEmpty() || name.startsWith("#"))
            {
                continue;
            }
            final Matcher m = NAME.matcher(name);
            if (!m.matches())
            {
                throw new IOException("bad migration file name in migrations.list: " + name);
            }
            final int version = Integer.parseInt(m.group(1));
            if (version != last + 1)
            {
                throw new IOException("migrations.list must number versions 1, 2, 3 ... without gaps; found " + name);
            }
            last = version;
            list.add(new Migration(version, m.group(2), resource(name)));
        }
        return new SchemaMigrator(list);
    }

    /**
     * @return the newest version this code knows.
     */
    public int latestVersion()
    {
        return migrations.isEmpty() ? 0 : migrations.get(migrations.size() - 1).version();
    }

    /**
     * Applies what is missing.
     *
     * @param dataSource the database.
     * @return the number of migrations applied (0 when up to date).
     * @throws SQLException from the database.
     * @throws SchemaTooNewException when the database is newer than this code.
     */
    public int migrate(final DataSource dataSource) throws SQLException
    {
        try (Connection c = dataSource.getConnection())
        {
            c.setAutoCommit(true);
            lock(c);
            try
            {
                try (Statement s = c.createStatement())
                {
                    s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INT NOT NULL PRIMARY KEY, " +
                        "description VARCHAR(200) NOT NULL, applied_ms BIGINT NOT NULL) ENGINE=InnoDB");
                }
                final int current = currentVersion(c);
                if (current > latestVersion())
                {
                    throw new SchemaTooNewException(current, latestVersion());
                }
                int applied = 0;
                for (final Migration migration : migrations)
                {
                    if (migration.version() > current)
                    {
                        apply(c, migration);
                        applied++;
                    }
                }
                return applied;
            }
            finally
            {
                unlock(c);
            }
        }
    }

    /**
     * @param dataSource the database.
     * @return the highest version recorded, 0 for an empty database.
     * @throws SQLException from the database.
     */
    public static int currentVersion(final DataSource dataSource) throws SQLException
    {
        try (Connection c = dataSource.getConnection())
        {
            return currentVersion(c);
        }
    }

    private static int currentVersion(final Connection c) throws SQLException
    {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
        {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void apply(final Connection c, final Migration migration) throws SQLException
    {
        LOG.info("applying schema migration V{}__{}", migration.version(), migration.description());
        // DDL commits implicitly in MySQL; every statement is written idempotently instead, so a run cut short
        // is completed by the next start.
        try (Statement s = c.createStatement())
        {
            for (final String statement : statements(migration.sql()))
            {
                s.execute(statement);
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
            "INSERT INTO schema_version (version, description, applied_ms) VALUES (?, ?, ?)"))
        {
            ps.setInt(1, migration.version());
            ps.setString(2, migration.description());
            ps.setLong(3, System.currentTimeMillis());
            ps.executeUpdate();
        }
    }

    /**
     * Splits a migration into statements: at semicolons ending a line, with whole-line {@code --} comments removed.
     *
     * @param sql file content.
     * @return the statements.
     */
    static List<String> statements(final String sql)
    {
        final List<String> out = new ArrayList<>();
        final StringBuilder current = new StringBuilder();
        for (final String line : sql.split("\n"))
        {
            final String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("--"))
            {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";"))
            {
                final String statement = current.toString().trim();
                out.add(statement.substring(0, statement.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank())
        {
            out.add(current.toString().trim());
        }
        return out;
    }

    private static void lock(final Connection c) throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement("SELECT GET_LOCK(?, 60)"))
        {
            ps.setString(1, LOCK);
            try (ResultSet rs = ps.executeQuery())
            {
                if (!rs.next() || rs.getInt(1) != 1)
                {
                    throw new SQLException("another server holds the schema migration lock for over 60 s");
                }
            }
        }
    }

    private static void unlock(final Connection c) throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement("SELECT RELEASE_LOCK(?)"))
        {
            ps.setString(1, LOCK);
            ps.executeQuery().close();
        }
    }

    private static String resource(final String name) throws IOException
    {
        try (InputStream in = SchemaMigrator.class.getResourceAsStream(ROOT + name))
        {
            if (in == null)
            {
                throw new IOException("schema migration resource " + ROOT + name + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
