package io.cheetah.server.storage.mysql;

import io.cheetah.server.storage.StorageSettings;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneOffset;

/**
 * Test fixture: one embedded MariaDB for the whole test run (start-up takes seconds), under
 * {@code target/embedded-mariadb}, stopped when the run ends. Use with {@code @ExtendWith(EmbeddedDatabase.class)}
 * and {@link #database()}; {@link #truncate()} gives a test empty tables.
 */
public final class EmbeddedDatabase implements BeforeAllCallback, ExtensionContext.Store.CloseableResource
{
    private static Database database;
    private static Path root;

    @Override
    public void beforeAll(final ExtensionContext context) throws Exception
    {
        synchronized (EmbeddedDatabase.class)
        {
            if (database == null)
            {
                root = Path.of("target", "embedded-mariadb").toAbsolutePath();
                Files.createDirectories(root);
                database = Database.open(settings(root));
                SchemaMigrator.fromClasspath().migrate(database.dataSource());
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(EmbeddedDatabase.class.getName(),
                    this);
            }
        }
    }

    @Override
    public void close()
    {
        synchronized (EmbeddedDatabase.class)
        {
            if (database != null)
            {
                database.close();
                database = null;
            }
        }
    }

    /**
     * @return the shared database.
     */
    public static Database database()
    {
        return database;
    }

    /**
     * @param dataDir a data directory.
     * @return settings using the shared database's URL, UTC and server id {@code test-server}.
     */
    public static StorageSettings externalSettings(final Path dataDir)
    {
        return StorageSettings.defaults(dataDir).withMysql(database.embedded().jdbcUrl(), "root", "")
            .withServer("test-server", ZoneOffset.UTC);
    }

    /**
     * @param dataDir a data directory.
     * @return embedded settings in UTC.
     */
    public static StorageSettings settings(final Path dataDir)
    {
        return StorageSettings.defaults(dataDir).withServer("test-server", ZoneOffset.UTC);
    }

    /**
     * Empties every report and task table.
     */
    public static void truncate()
    {
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement())
        {
            for (final String table : new String[]{"hourly_report_content", "rollup_report_content", "rollup_task"})
            {
                s.execute("DELETE FROM " + table);
            }
            s.execute("DELETE FROM hourly_report");
            s.execute("DELETE FROM rollup_report");
        }
        catch (final SQLException e)
        {
            throw new UncheckedIOException(new IOException(e));
        }
    }
}
