package io.cheetah.catimport;

import static io.cheetah.catimport.CatAnswer.children;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cheetah.server.FullServer;
import io.cheetah.server.config.ConfigLoader;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.storage.mysql.Database;
import io.cheetah.server.storage.mysql.EmbeddedMariaDb;
import io.cheetah.server.storage.mysql.SchemaMigrator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * The import of CAT's daily, weekly and monthly tables end to end. The vector's CAT database has no such rows (its
 * CAT ran for an hour), so this test writes them into a copy of it as CAT would for periods whose hours CAT no longer
 * holds: the Transaction rows of bar-shop-8's hour 2026-11-28 21:00 copied as the day 2026-11-20 (several rows of one
 * period, merged as for an hour), the week from Saturday 2026-11-07 and the month 2026-10; the same rows as the day
 * 2026-11-28 (whose hours Cheetah imports: its own roll-up must stay); and a truncated row as compat-java31's day
 * 2026-11-21. Then a Cheetah server started on the imported schema answers CAT's day URL for 2026-11-20 with the
 * figures of that hour, the damaged row is named and skipped, a re-run changes nothing, an interrupted run resumes
 * to the same rows and {@code --since} leaves out the periods that start before it.
 */
class CatPeriodImportSystemTest
{
    private static final LocalDateTime HOUR = LocalDateTime.of(2026, 11, 28, 21, 0);
    private static final long NOW = Instant.parse("2026-11-28T14:10:00Z").toEpochMilli();
    private static final ZoneId CAT_ZONE = ZoneId.of("Asia/Shanghai");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static Path dir;
    private static EmbeddedMariaDb db;
    private static String catUrl;
    private static String cheetahUrl;
    private static String hourUrl;
    private static int damagedId;
    private static ImportSummary first;
    private static FullServer server;
    private static FullServer hourServer;

    @BeforeAll
    static void importAndStart() throws Exception
    {
        dir = Files.createTempDirectory("cat-period-import");
        db = EmbeddedMariaDb.start(dir.resolve("mysql"), 0);
        catUrl = CatDatabase.load(db, "cat_periods");
        try (Connection c = DriverManager.getConnection(catUrl, "root", ""))
        {
            // CAT 3.1.0 keys these tables by period, domain and name; older CATs did not, and the import merges
            // several rows of one period as it does for an hour: the copy below writes one per consumer row
            for (final String table : List.of("dailyreport", "weeklyreport", "monthreport"))
            {
                try (Statement s = c.createStatement())
                {
                    s.executeUpdate("ALTER TABLE " + table + " DROP INDEX period");
                }
            }
            for (final int id : hourlyIds(c, "bar-shop-8"))
            {
                copy(c, id, "dailyreport", "daily_report_content", LocalDateTime.of(2026, 11, 20, 0, 0), false);
                copy(c, id, "dailyreport", "daily_report_content", LocalDateTime.of(2026, 11, 28, 0, 0), false);
                copy(c, id, "weeklyreport", "weekly_report_content", LocalDateTime.of(2026, 11, 7, 0, 0), false);
                copy(c, id, "monthreport", "monthly_report_content", LocalDateTime.of(2026, 10, 1, 0, 0), false);
            }
            damagedId = copy(c, hourlyIds(c, "compat-java31").get(0), "dailyreport", "daily_report_content",
                LocalDateTime.of(2026, 11, 21, 0, 0), true);
        }
        cheetahUrl = CatDatabase.empty(db, "cheetah_periods");
        first = importInto(catUrl, cheetahUrl);
        // the same CAT without period rows: the reference for the hour's figures and for Cheetah's own day
        hourUrl = CatDatabase.empty(db, "cheetah_periods_hours");
        importInto(CatDatabase.load(db, "cat_periods_hours"), hourUrl);
        server = FullServer.start(config(cheetahUrl, "server-data"), () -> NOW, false);
        hourServer = FullServer.start(config(hourUrl, "hour-server-data"), () -> NOW, false);
    }

    @AfterAll
    static void stop()
    {
        for (final FullServer s : new FullServer[] {server, hourServer})
        {
            if (s != null)
            {
                s.close();
            }
        }
        if (db != null)
        {
            db.close();
        }
    }

    @Test
    void aDayOnlyCatsDailyTableHoldsAnswersItsFigures() throws Exception
    {
        final String answer = get(server, "/cat/r/t?op=history&domain=bar-shop-8&date=20261120&reportType=day&ip=All" +
            "&forceDownload=xml");
        final Map<String, String> day = types(answer);
        final Map<String, String> hour = types(get(hourServer, "/cat/r/t?domain=bar-shop-8&date=2026112821&ip=All" +
            "&forceDownload=xml"));
        assertThat(hour).isNotEmpty();
        assertThat(day).as(answer).isEqualTo(hour);
    }

    @Test
    void periodsWithCheetahsOwnHoursAreLeftToItsRollUpAndADamagedRowIsNamed() throws Exception
    {
        assertThat(first.periods().written()).as("day 11-20, week 11-07, month 10").isEqualTo(3);
        assertThat(first.periods().owned()).as("day 11-28: its hours were imported").isEqualTo(1);
        assertThat(first.periods().failed()).isEqualTo(1);
        assertThat(first.problems()).hasSize(1);
        assertThat(first.problems().get(0).table()).isEqualTo("daily_report_content");
        assertThat(first.problems().get(0).id()).isEqualTo(Integer.toString(damagedId));
        assertThat(query(cheetahUrl, "SELECT CONCAT(kind, ' ', period_ms) FROM cat_import_period ORDER BY kind"))
            .containsExactly("D " + ms(2026, 11, 20), "M " + ms(2026, 10, 1), "W " + ms(2026, 11, 7));
        assertThat(query(cheetahUrl, "SELECT COUNT(*) FROM rollup_report WHERE domain = 'compat-java31' AND " +
            "period_ms = " + ms(2026, 11, 21))).containsExactly("0");
        // the day whose hours Cheetah has is left to its own roll-up of them (built once the day has closed: NOW
        // is its evening), the same as where CAT has no period rows
        final String ownDay = "SELECT HEX(c.content) FROM rollup_report r JOIN rollup_report_content c ON " +
            "c.report_id = r.id WHERE r.domain = 'bar-shop-8' AND r.analyzer = 'transaction' AND r.kind = 'D' " +
            "AND r.period_ms = " + ms(2026, 11, 28);
        assertThat(query(cheetahUrl, ownDay)).isEqualTo(query(hourUrl, ownDay));
    }

    @Test
    void aRerunChangesNothing() throws Exception
    {
        final Map<String, String> before = snapshot(cheetahUrl);
        final ImportSummary again = importInto(catUrl, cheetahUrl);
        assertThat(again.periods().written()).isZero();
        assertThat(again.periods().unchanged()).isEqualTo(3);
        assertThat(again.periods().owned()).isEqualTo(1);
        assertThat(again.problems()).extracting(ImportProblem::id).containsExactly(Integer.toString(damagedId));
        assertThat(snapshot(cheetahUrl)).isEqualTo(before);
    }

    @Test
    void anInterruptedRunResumesAndSinceIsRespected() throws Exception
    {
        final String target = CatDatabase.empty(db, "cheetah_periods_interrupted");
        assertThatThrownBy(() -> importInto(catUrl, target, null, key ->
        {
            if (key.startsWith("weeklyreport/"))
            {
                throw new IllegalStateException("killed before committing " + key);
            }
        })).hasMessageContaining("killed");
        assertThat(query(target, "SELECT kind FROM cat_import_period")).containsExactly("D");
        final ImportSummary resumed = importInto(catUrl, target, null, null);
        assertThat(resumed.periods().unchanged()).isEqualTo(1);
        assertThat(resumed.periods().written()).isEqualTo(2);
        final String rows = "SELECT CONCAT_WS('|', r.domain, r.analyzer, r.kind, r.period_ms, r.server, " +
            "HEX(c.content)) FROM rollup_report r JOIN rollup_report_content c ON c.report_id = r.id ORDER BY 1";
        assertThat(query(target, rows)).isEqualTo(query(cheetahUrl, rows));
        // --since 2026-11-08: the week from 11-07 and the month from 10-01 start before it
        final String since = CatDatabase.empty(db, "cheetah_periods_since");
        final ImportSummary later = importInto(catUrl, since, java.time.LocalDate.of(2026, 11, 8), null);
        assertThat(later.periods().written()).isEqualTo(1);
        assertThat(query(since, "SELECT CONCAT(kind, ' ', period_ms) FROM cat_import_period"))
            .containsExactly("D " + ms(2026, 11, 20));
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static long ms(final int year, final int month, final int day)
    {
        return LocalDateTime.of(year, month, day, 0, 0).atZone(CAT_ZONE).toInstant().toEpochMilli();
    }

    private static List<Integer> hourlyIds(final Connection c, final String domain) throws Exception
    {
        final List<Integer> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM hourlyreport WHERE name = 'transaction' AND " +
            "domain = ? AND period = ? ORDER BY id"))
        {
            ps.setString(1, domain);
            ps.setObject(2, HOUR);
            try (ResultSet rs = ps.executeQuery())
            {
                while (rs.next())
                {
                    out.add(rs.getInt(1));
                }
            }
        }
        assertThat(out).as(domain).isNotEmpty();
        return out;
    }

    /** Writes CAT's hourly row {@code id} as a row of a period table, as CAT's DAO would; returns the new id. */
    private static int copy(final Connection c, final int id, final String table, final String contents,
        final LocalDateTime period, final boolean truncate) throws Exception
    {
        final int newId;
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (name, ip, domain, period, type, " +
            "creation_date) SELECT name, COALESCE(ip, ''), domain, ?, type, creation_date FROM hourlyreport " +
            "WHERE id = ?", Statement.RETURN_GENERATED_KEYS))
        {
            ps.setObject(1, period);
            ps.setInt(2, id);
            assertThat(ps.executeUpdate()).isEqualTo(1);
            try (ResultSet keys = ps.getGeneratedKeys())
            {
                keys.next();
                newId = keys.getInt(1);
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + contents + " (report_id, content, period, " +
            "creation_date) SELECT ?, " + (truncate ? "SUBSTRING(content, 1, 40)" : "content") + ", ?, " +
            "creation_date FROM hourly_report_content WHERE report_id = ?"))
        {
            ps.setInt(1, newId);
            ps.setObject(2, period);
            ps.setInt(3, id);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        return newId;
    }

    private static ImportSummary importInto(final String from, final String to) throws Exception
    {
        return importInto(from, to, null, null);
    }

    private static ImportSummary importInto(final String from, final String to, final java.time.LocalDate since,
        final java.util.function.Consumer<String> hook) throws Exception
    {
        try (Database cat = source(from); Database cheetah = source(to))
        {
            SchemaMigrator.fromClasspath().migrate(cheetah.dataSource());
            final CatImport run = new CatImport(cat.dataSource(), cheetah.dataSource(), ImportCommand.formats(),
                CAT_ZONE, CAT_ZONE, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                () -> NOW);
            if (hook != null)
            {
                run.beforeCommit(hook);
            }
            return run.run(since);
        }
    }

    private static ServerConfig config(final String url, final String data)
    {
        return new ConfigLoader().set(List.of("tcp.host=127.0.0.1", "tcp.port=0", "http.host=127.0.0.1",
            "http.port=0", "pipeline.ringSize=1024", "storage.checkpointSeconds=3600", "pipeline.gate.backlogMillis=0",
            "storage.mysql.url=" + url, "storage.mysql.user=root", "storage.timeZone=Asia/Shanghai",
            "storage.serverId=cheetah-1", "storage.retention.hourlyDays=0", "storage.dataDir=" + dir.resolve(data)))
            .load();
    }

    private static Database source(final String url)
    {
        return Database.connect(url, "root", "", 2);
    }

    private static String get(final FullServer on, final String path) throws Exception
    {
        final HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" +
            on.server().httpPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return r.body();
    }

    /** Type id to its count figures at machine All (tps aside: a day divides by a day, an hour by an hour). */
    private static Map<String, String> types(final String xml) throws Exception
    {
        final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        final Element root = f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(
            StandardCharsets.UTF_8))).getDocumentElement();
        final Map<String, String> out = new TreeMap<>();
        for (final Element machine : elements(root, "machine"))
        {
            if (!"All".equals(machine.getAttribute("ip")))
            {
                continue;
            }
            for (final Element type : children(machine, "type"))
            {
                final StringBuilder figures = new StringBuilder();
                for (final String a : List.of("totalCount", "failCount", "min", "max", "sum", "sum2", "avg"))
                {
                    figures.append(a).append('=').append(type.getAttribute(a)).append(' ');
                }
                out.put(type.getAttribute("id"), figures.toString());
            }
        }
        return out;
    }

    private static List<Element> elements(final Element root, final String tag)
    {
        final List<Element> out = new ArrayList<>();
        final org.w3c.dom.NodeList list = root.getElementsByTagName(tag);
        for (int i = 0; i < list.getLength(); i++)
        {
            out.add((Element) list.item(i));
        }
        return out;
    }

    private static List<String> query(final String url, final String sql) throws Exception
    {
        final List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, "root", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql))
        {
            while (rs.next())
            {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** Every roll-up row with its content and creation time, and the period ledger. */
    private static Map<String, String> snapshot(final String url) throws Exception
    {
        final Map<String, String> out = new TreeMap<>();
        for (final String sql : List.of("SELECT CONCAT_WS('|', r.id, r.domain, r.analyzer, r.kind, r.period_ms, " +
            "r.server, r.created_ms, HEX(c.content)) FROM rollup_report r JOIN rollup_report_content c ON " +
            "c.report_id = r.id", "SELECT CONCAT_WS('|', domain, analyzer, kind, period_ms, cat_rows, cat_ids, " +
            "imported_ms) FROM cat_import_period"))
        {
            for (final String row : query(url, sql))
            {
                out.put(row, "");
            }
        }
        return out;
    }
}
