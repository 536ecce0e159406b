package io.cheetah.server.storage.mysql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.cheetah.server.storage.StorageSettings;

import javax.sql.DataSource;
import java.io.IOException;

/**
 * The connection pool (HikariCP over MySQL Connector/J) to the configured MySQL, or to the embedded MariaDB it
 * starts when {@code storage.mysql.url} is empty. Opened once by {@link io.cheetah.server.storage.ReportStore};
 * closing it closes the pool and stops the embedded server. The pool starts even while the database is down, so
 * storage can spool locally and catch up later.
 */
public final class Database implements AutoCloseable
{
    /**
     * The database's own clock in epoch milliseconds, as an SQL expression: what cluster members, the alerting lease
     * and the shared alert configuration compare, so that the servers' clocks never have to agree.
     */
    public static final String NOW_MS = "ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)";

    private final HikariDataSource pool;
    private final EmbeddedMariaDb embedded;

    private Database(final HikariDataSource pool, final EmbeddedMariaDb embedded)
    {
        this.pool = pool;
        this.embedded = embedded;
    }

    /**
     * @param settings storage settings ({@code storage.mysql.*}, {@code storage.dataDir}).
     * @return the open database.
     * @throws IOException when the embedded server cannot start.
     */
    public static Database open(final StorageSettings settings) throws IOException
    {
        if (settings.embedded())
        {
            final EmbeddedMariaDb embedded = EmbeddedMariaDb.start(settings.dataDir().resolve("mysql"), 0);
            try
            {
                return new Database(pool(embedded.jdbcUrl(), "root", "", settings.mysqlPoolSize()), embedded);
            }
            catch (final RuntimeException e)
            {
                embedded.close();
                throw e;
            }
        }
        return new Database(pool(settings.mysqlUrl(), settings.mysqlUser(), settings.mysqlPassword(),
            settings.mysqlPoolSize()), null);
    }

    /**
     * @param jdbcUrl  URL of a database.
     * @param user     user.
     * @param password password.
     * @param poolSize connections.
     * @return a database on that URL, starting nothing.
     */
    public static Database connect(final String jdbcUrl, final String user, final String password,
                                   final int poolSize)
    {
        return new Database(pool(jdbcUrl, user, password, poolSize), null);
    }

    /**
     * @return the pooled data source.
     */
    public DataSource dataSource()
    {
        return pool;
    }

    /**
     * @return the embedded server, or null when an external database is used.
     */
    public EmbeddedMariaDb embedded()
    {
        return embedded;
    }

    @Override
    public void close()
    {
        pool.close();
        if (embedded != null)
        {
            embedded.close();
        }
    }

    private static HikariDataSource pool(final String url, final String user, final String password,
                                         final int size)
    {
        final HikariConfig config = new HikariConfig();
        config.setPoolName("cheetah-mysql");
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password == null ? "" : password);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(1);
        // Fail fast while MySQL is down: callers spool locally and retry with backoff.
        config.setConnectionTimeout(5_000);
        config.setValidationTimeout(2_000);
        config.setInitializationFailTimeout(-1);
        config.addDataSourceProperty("connectTimeout", "5000");
        config.addDataSourceProperty("socketTimeout", "120000");
        config.addDataSourceProperty("characterEncoding", "UTF-8");
        config.addDataSourceProperty("cachePrepStmts", "true");
        config.addDataSourceProperty("useServerPrepStmts", "false");
        return new HikariDataSource(config);
    }
}
