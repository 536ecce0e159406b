package io.cheetah.catimport;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.config.ConfigException;
import io.cheetah.server.config.ConfigLoader;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.state.StateAnalyzer;
import io.cheetah.server.state.StateReport;
import io.cheetah.server.storage.StorageSettings;
import io.cheetah.server.storage.mysql.Database;
import io.cheetah.server.storage.mysql.EmbeddedMariaDb;
import io.cheetah.server.storage.mysql.SchemaMigrator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The command {@code scripts/cat-import --from jdbc:mysql://cat-db:3306/cat --user U --password P
 * [--since yyyy-MM-dd] [--cat-zone ZONE] [--config-dir DIR] [--no-history] [--no-config]}, with the server's own
 * {@code --config FILE} and {@code --set key=value} naming Cheetah's database ({@code storage.*}) and the directory
 * of CAT's alert configuration ({@code alerting.catConfigDir}). Imports CAT's history ({@link CatImport}) and its
 * configuration ({@link ConfigImport}), printing a progress line per day of CAT's and every row or document it
 * could not take. Exit status: 0 done, 1 done with rows or documents not taken, 2 bad arguments or configuration,
 * 3 a database failed (a re-run resumes).
 */
public final class ImportCommand
{
    private static final String USAGE = "usage: cat-import --from jdbc:mysql://HOST:3306/cat --user U --password P " +
        "[--since yyyy-MM-dd] [--cat-zone ZONE] [--config-dir DIR] [--no-history] [--no-config] [--config FILE] " +
        "[--set key=value]...";

    private ImportCommand()
    {
    }

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * @param args the command line.
     * @param out  progress and summary.
     * @param err  errors and rows not taken.
     * @return the exit status.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final Options options;
        try
        {
            options = Options.parse(args);
        }
        catch (final ConfigException | IllegalArgumentException | DateTimeException e)
        {
            err.println("cat-import: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        final StorageSettings storage = options.server.storage().settings();
        if (options.history && storage.embedded() && EmbeddedMariaDb.running(storage.dataDir().resolve("mysql")))
        {
            err.println("cat-import: a server's embedded MariaDB runs on " + storage.dataDir() + ": stop the server " +
                "first (or give it and the import an external storage.mysql.url)");
            return 2;
        }
        final ZoneId catZone = options.catZone == null ? storage.zone() : options.catZone;
        int status = 0;
        try (Database source = Database.connect(options.from, options.user, options.password, 2))
        {
            if (options.history)
            {
                try (Database target = Database.open(storage))
                {
                    SchemaMigrator.fromClasspath().migrate(target.dataSource());
                    out.println("cat-import: history from " + options.from + " (CAT's hours in " + catZone +
                        ") into " + (storage.embedded() ? "the embedded MariaDB in " + storage.dataDir() :
                        storage.mysqlUrl()));
                    final ImportSummary s = new CatImport(source.dataSource(), target.dataSource(), formats(),
                        catZone, storage.zone(), out, System::currentTimeMillis).run(options.since);
                    out.printf("cat-import: history: %d CAT rows read, %d hours written, %d unchanged, %d left to " +
                        "Cheetah's own, %d failed; %d rows of kinds not imported; CAT's days, weeks and months: %d " +
                        "written, %d unchanged, %d left to Cheetah's own, %d failed%n", s.rowsRead(), s.hoursWritten(),
                        s.hoursUnchanged(), s.hoursOwned(), s.hoursFailed(), s.rowsNotRead(), s.periods().written(),
                        s.periods().unchanged(), s.periods().owned(), s.periods().failed());
                    for (final ImportProblem p : s.problems())
                    {
                        err.println("cat-import: not taken: " + p);
                    }
                    status = s.problems().isEmpty() ? status : 1;
                }
            }
            final String dir = options.configDir != null ? options.configDir
                : options.server.alerting().catConfigDir();
            if (options.config && (dir == null || dir.isEmpty()))
            {
                out.println("cat-import: configuration not imported: set alerting.catConfigDir (or --config-dir)");
            }
            else if (options.config)
            {
                final ConfigImport config = new ConfigImport(source.dataSource(), Path.of(dir));
                final List<ImportProblem> problems = config.run();
                out.printf("cat-import: configuration into %s: %d files written, %d unchanged, %d not taken; " +
                    "%d Business metric definitions not used%n", dir, config.written().size(),
                    config.unchanged().size(), problems.size(), config.definitions());
                for (final ImportProblem p : problems)
                {
                    err.println("cat-import: not taken: " + p);
                }
                status = problems.isEmpty() ? status : 1;
            }
        }
        catch (final SQLException e)
        {
            err.println("cat-import: database failed: " + e.getMessage() + " (what was committed stays; run again " +
                "to resume)");
            return 3;
        }
        catch (final IOException | IllegalArgumentException e)
        {
            err.println("cat-import: " + e.getMessage());
            return 3;
        }
        return status;
    }

    /**
     * @return Cheetah's report formats by analyzer name, as the server stores them.
     */
    static Map<String, ReportFormat> formats()
    {
        final Map<String, ReportFormat> formats = new HashMap<>();
        for (final AnalyzerType t : AnalyzerCatalog.builtIn())
        {
            if (t.format() != null)
            {
                formats.put(t.name(), t.format());
            }
        }
        formats.put(StateReport.ANALYZER, StateAnalyzer.FORMAT);
        return formats;
    }

    /** The parsed command line. */
    private record Options(ServerConfig server, String from, String user, String password, LocalDate since,
                           ZoneId catZone, String configDir, boolean history, boolean config)
    {
        static Options parse(final String[] args)
        {
            final ConfigLoader loader = new ConfigLoader();
            final List<String> sets = new ArrayList<>();
            String from = null;
            String user = "root";
            String password = System.getenv("CAT_MYSQL_PASSWORD");
            LocalDate since = null;
            ZoneId zone = null;
            String configDir = null;
            boolean history = true;
            boolean config = true;
            for (int i = 0; i < args.length; i++)
            {
                final String a = args[i];
                switch (a)
                {
                    case "--from" -> from = value(args, ++i, a);
                    case "--user" -> user = value(args, ++i, a);
                    case "--password" -> password = value(args, ++i, a);
                    case "--since" -> since = LocalDate.parse(value(args, ++i, a));
                    case "--cat-zone" -> zone = ZoneId.of(value(args, ++i, a));
                    case "--config-dir" -> configDir = value(args, ++i, a);
                    case "--no-history" -> history = false;
                    case "--no-config" -> config = false;
                    case "--config" -> loader.file(Path.of(value(args, ++i, a)));
                    case "--set" -> sets.add(value(args, ++i, a));
                    default -> throw new IllegalArgumentException(a + ": unknown argument");
                }
            }
            if (from == null || !(from.startsWith("jdbc:mysql:") || from.startsWith("jdbc:mariadb:")))
            {
                throw new IllegalArgumentException("--from jdbc:mysql://HOST:PORT/DATABASE names CAT's database");
            }
            loader.set(sets);
            return new Options(loader.load(), from, user, password == null ? "" : password, since, zone, configDir,
                history, config);
        }

        private static String value(final String[] args, final int i, final String option)
        {
            if (i >= args.length)
            {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }
    }
}
