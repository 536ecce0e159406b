package io.cheetah.catimport;

import static org.assertj.core.api.Assertions.assertThat;

import io.cheetah.server.storage.mysql.Database;
import io.cheetah.server.storage.mysql.EmbeddedMariaDb;
import io.cheetah.server.storage.mysql.SchemaMigrator;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The timing of BENCHMARKS.md's "Round three, session 3: the CAT import" (run only when asked:
 * {@code -Dcheetah.timing=true}): the vector's CAT hour copied to {@code cheetah.timing.hours} hours (default 48) of
 * one CAT database, imported into a fresh Cheetah schema of the same embedded MariaDB {@code cheetah.timing.runs}
 * times (default 5); prints CAT rows and content bytes per second of each run (the first warms the JVM up), the
 * days, weeks and months the import rolled up included.
 */
@EnabledIfSystemProperty(named = "cheetah.timing", matches = "true")
class ImportTimingSystemTest
{
    @Test
    void importRate() throws Exception
    {
        final int hours = Integer.getInteger("cheetah.timing.hours", 48);
        final int runs = Integer.getInteger("cheetah.timing.runs", 5);
        final Path dir = Files.createTempDirectory("cat-import-timing");
        try (EmbeddedMariaDb db = EmbeddedMariaDb.start(dir.resolve("mysql"), 0))
        {
            final String cat = CatDatabase.load(db, "cat");
            final long[] size = copyHours(cat, hours);
            System.out.printf("timing: CAT database of %d hourlyreport rows, %d content bytes (%d hours)%n", size[0],
                size[1], hours);
            final List<String> lines = new ArrayList<>();
            for (int run = 0; run < runs; run++)
            {
                final String target = CatDatabase.empty(db, "cheetah_timing_" + run);
                try (Database source = Database.connect(cat, "root", "", 2);
                     Database cheetah = Database.connect(target, "root", "", 2))
                {
                    SchemaMigrator.fromClasspath().migrate(cheetah.dataSource());
                    final CatImport job = new CatImport(source.dataSource(), cheetah.dataSource(),
                        ImportCommand.formats(), ZoneId.of("Asia/Shanghai"), ZoneId.of("Asia/Shanghai"),
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        System::currentTimeMillis);
                    final long start = System.nanoTime();
                    final ImportSummary s = job.run(null);
                    final double seconds = (System.nanoTime() - start) / 1e9;
                    assertThat(s.problems()).isEmpty();
                    final String line = String.format("timing: run %d: %d CAT rows read (%d not imported kinds), " +
                        "%d hours written in %.2f s: %.0f rows/s, %.2f MB/s of CAT content", run + 1, s.rowsRead(),
                        s.rowsNotRead(), s.hoursWritten(), seconds, s.rowsRead() / seconds,
                        size[1] / 1e6 / seconds);
                    lines.add(line);
                    System.out.println(line);
                    final String rollups = rollups(target);
                    System.out.println("timing: run " + (run + 1) + ": roll-ups built by the import: " + rollups);
                    assertThat(rollups).contains("D=");
                }
            }
            Files.write(Path.of(System.getProperty("java.io.tmpdir"), "cat-import-timing.txt"), lines);
        }
    }

    /** Roll-up rows by kind, e.g. {@code D=30 W=10}. */
    private static String rollups(final String url) throws Exception
    {
        final StringBuilder out = new StringBuilder();
        try (Connection c = DriverManager.getConnection(url, "root", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT kind, COUNT(*) FROM rollup_report GROUP BY kind ORDER BY kind"))
        {
            while (rs.next())
            {
                out.append(rs.getString(1)).append('=').append(rs.getLong(2)).append(' ');
            }
        }
        return out.toString().trim();
    }

    /** Copies the vector's hour to the hours before it; returns rows and content bytes. */
    private static long[] copyHours(final String url, final int hours) throws Exception
    {
        try (Connection c = DriverManager.getConnection(url, "root", ""); Statement s = c.createStatement())
        {
            for (int h = 1; h < hours; h++)
            {
                s.executeUpdate("INSERT INTO hourlyreport (id, type, name, ip, domain, period, creation_date) " +
                    "SELECT id + " + h * 1000 + ", type, name, ip, domain, period - INTERVAL " + h + " HOUR, " +
                    "creation_date FROM hourlyreport WHERE id < 1000");
                s.executeUpdate("INSERT INTO hourly_report_content (report_id, content, period, creation_date) " +
                    "SELECT report_id + " + h * 1000 + ", content, period - INTERVAL " + h + " HOUR, creation_date " +
                    "FROM hourly_report_content WHERE report_id < 1000");
            }
            try (ResultSet rs = s.executeQuery("SELECT (SELECT COUNT(*) FROM hourlyreport), " +
                "(SELECT SUM(LENGTH(content)) FROM hourly_report_content)"))
            {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }
}
