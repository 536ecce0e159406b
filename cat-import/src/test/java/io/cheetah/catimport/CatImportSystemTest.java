package io.cheetah.catimport;

import static io.cheetah.catimport.CatAnswer.children;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cheetah.server.FullServer;
import io.cheetah.server.alert.CatAlertConfig;
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
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import javax.xml.parsers.DocumentBuilderFactory;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Element;

/**
 * The import end to end: the vector's CAT database ({@code cat-mysql/cat.sql.gz}, written by a stock CAT 3.1.0) is
 * loaded into a schema of an embedded MariaDB, {@code scripts/cat-import}'s command imports it into another schema,
 * and a Cheetah server started on that one answers CAT's URLs for the hour 2026112821 (Asia/Shanghai) with what CAT
 * answered ({@code cat-mysql/answers/}): totals, failures, sums, min, max, averages, samples (percentiles aside).
 * Then: a re-run changes nothing, a damaged row is named and the rest imported, an interrupted run resumes to the
 * same result, and a configuration document CAT would refuse is named while the rest are taken.
 */
class CatImportSystemTest
{
    private static final String HOUR = "2026112821";
    /** An hour after CAT's hour closed (CAT's 22:10 in UTC+8). */
    private static final long NOW = Instant.parse("2026-11-28T14:10:00Z").toEpochMilli();
    private static final ZoneId CAT_ZONE = ZoneId.of("Asia/Shanghai");
    private static final Set<String> IMPORTED = Set.of("transaction", "event", "problem", "heartbeat", "state", "matrix",
        "top", "business", "cross", "dependency");

    private static Path dir;
    private static EmbeddedMariaDb db;
    private static String catUrl;
    private static String cheetahUrl;
    private static String importOut;
    private static int importStatus;
    private static FullServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void importAndStart() throws Exception
    {
        dir = Files.createTempDirectory("cat-import");
        db = EmbeddedMariaDb.start(dir.resolve("mysql"), 0);
        catUrl = CatDatabase.load(db, "cat");
        cheetahUrl = CatDatabase.empty(db, "cheetah_main");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        importStatus = ImportCommand.run(new String[] {"--from", catUrl, "--user", "root", "--password", "",
            "--config-dir", dir.resolve("cat-config").toString(), "--set", "storage.mysql.url=" + cheetahUrl,
            "--set", "storage.mysql.user=root", "--set", "storage.timeZone=Asia/Shanghai",
            "--set", "storage.dataDir=" + dir.resolve("import-data")},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        importOut = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        server = FullServer.start(config(cheetahUrl, "server-data"), () -> NOW, false);
    }

    @AfterAll
    static void stop()
    {
        if (server != null)
        {
            server.close();
        }
        if (db != null)
        {
            db.close();
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

    @Test
    void theCommandImportsEveryHourOfTheKindsItReads() throws Exception
    {
        // CAT's default heartbeat rule names its metric without a group, which Cheetah's reader refuses (README,
        // "Alerting"): named, the rest taken, and the status says something was not taken
        assertThat(importStatus).as(importOut).isEqualTo(1);
        assertThat(importOut).contains("cat-import: 2026-11-28 done").contains("hours written")
            .contains("not taken: config " + query(catUrl, "SELECT id FROM config WHERE name = 'heartbeatRuleConfig'")
                .get(0) + " (heartbeatRuleConfig): heartbeatRuleConfig.xml: rule")
            .containsOnlyOnce("not taken:");
        final Set<String> expected = new TreeSet<>();
        for (final HourlyReportRow row : CatSqlDump.rows())
        {
            if (IMPORTED.contains(row.name()))
            {
                expected.add(row.domain() + "/" + row.name() + "/" +
                    row.period().atZone(CAT_ZONE).toInstant().toEpochMilli());
            }
        }
        assertThat(ledger(cheetahUrl).keySet()).isEqualTo(expected);
        assertThat(query(cheetahUrl, "SELECT DISTINCT server FROM hourly_report")).containsExactly(CatImport.SERVER);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"transaction, t, bar-shop-8", "transaction, t, compat-java31", "event, e, bar-shop-8",
        "event, e, compat-java31"})
    void tallyKindsAnswerWhatCatAnswered(final String kind, final String page, final String domain) throws Exception
    {
        final Element cat = machine(CatAnswer.report(kind, domain), "All");
        final Element ours = machine(report(get("/cat/r/" + page + "?domain=" + domain + "&date=" + HOUR +
            "&ip=All&forceDownload=xml")), "All");
        assertThat(ours).as("Cheetah's machine All").isNotNull();
        final List<String> attributes = "transaction".equals(kind)
            ? List.of("totalCount", "failCount", "failPercent", "min", "max", "avg", "sum", "sum2", "std")
            : List.of("totalCount", "failCount", "failPercent");
        final SoftAssertions soft = new SoftAssertions();
        final Map<String, Element> ourTypes = new TreeMap<>();
        children(ours, "type").forEach(t -> ourTypes.put(t.getAttribute("id"), t));
        final Set<String> catTypes = new TreeSet<>();
        for (final Element type : children(cat, "type"))
        {
            final String id = type.getAttribute("id");
            catTypes.add(id);
            final Element our = ourTypes.get(id);
            soft.assertThat(our).as(id).isNotNull();
            if (our == null)
            {
                continue;
            }
            for (final String a : attributes)
            {
                soft.assertThat(our.getAttribute(a)).as(domain + " " + id + " " + a).isEqualTo(type.getAttribute(a));
            }
            // CAT answers the tps it stored, counted over the part of the hour its report had seen when written;
            // Cheetah divides a closed hour's count by the hour
            soft.assertThat(Double.parseDouble(our.getAttribute("tps"))).as(domain + " " + id + " tps")
                .isCloseTo(Double.parseDouble(type.getAttribute("tps")), org.assertj.core.data.Offset.offset(0.011));
            for (final String sample : List.of("successMessageUrl", "longestMessageUrl"))
            {
                soft.assertThat(CatAnswer.childText(our, sample)).as(id + " " + sample)
                    .isEqualTo(CatAnswer.childText(type, sample));
            }
        }
        soft.assertThat(ourTypes.keySet()).as("types").isEqualTo(catTypes);
        soft.assertAll();
    }

    /** CAT lists each machine under {@code ip=All}; Cheetah merges them there, so each machine is asked alone. */
    @ParameterizedTest
    @CsvSource({"bar-shop-8", "compat-java31"})
    void problemAnswersWhatCatAnswered(final String domain) throws Exception
    {
        final Element answer = CatAnswer.report("problem", domain);
        assertThat(children(answer, "machine")).isNotEmpty();
        for (final Element machine : children(answer, "machine"))
        {
            final String ip = machine.getAttribute("ip");
            final Map<String, String> cat = problems(List.of(machine));
            final Map<String, String> ours = problems(children(report(get("/cat/r/p?domain=" + domain + "&date=" +
                HOUR + "&ip=" + ip + "&forceDownload=xml")), "machine"));
            assertThat(cat).isNotEmpty();
            assertThat(ours).as(ip).isEqualTo(cat);
        }
    }

    @ParameterizedTest
    @CsvSource({"compat-java31, 192.0.2.2", "bar-shop-8, 10.9.0.1", "bar-shop-8, 10.9.0.2"})
    void heartbeatAnswersWhatCatAnswered(final String domain, final String ip) throws Exception
    {
        final Map<String, String> cat = heartbeats(CatAnswer.report("heartbeat", domain + "@" + ip));
        final Map<String, String> ours = heartbeats(report(get("/cat/r/h?domain=" + domain + "&date=" + HOUR +
            "&ip=" + ip + "&forceDownload=xml")));
        assertThat(ours).isEqualTo(cat);
    }

    /**
     * The list-shaped kinds: every figure CAT answered, element by element (keyed by the element's id, name, type or
     * ip along its path), is Cheetah's answer too, and Cheetah answers no element CAT did not.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "dependency/cat.xml | /cat/r/dependency?domain=bar-shop-8 | total-count error-count sum avg",
        "state/cat.xml | /cat/r/state?domain=cat&ip=All | total totalLoss size",
        "top/cat.xml | /cat/r/top?domain=cat | error url url-sum url-error service service-sum service-error sql " +
            "sql-sum sql-error call call-sum call-error cache cache-sum cache-error count",
        "matrix/bar-shop-8.xml | /cat/r/matrix?domain=bar-shop-8&ip=All | count totalTime totalCount min max",
        "matrix/compat-java31.xml | /cat/r/matrix?domain=compat-java31&ip=All | count totalTime totalCount min max",
        "cross/bar-shop-8.xml | /cat/r/cross?domain=bar-shop-8&ip=All | totalCount failCount sum avg",
        "cross/compat-java31.xml | /cat/r/cross?domain=compat-java31&ip=All | totalCount failCount sum avg"})
    void listKindsAnswerWhatCatAnswered(final String answer, final String url, final String attributes)
        throws Exception
    {
        final String kind = answer.substring(0, answer.indexOf('/'));
        final Element cat = CatAnswer.report(kind, answer.substring(kind.length() + 1, answer.length() - 4));
        final Element ours = report(get(url + "&date=" + HOUR + "&forceDownload=xml"));
        final Set<String> names = Set.of(attributes.split(" "));
        final Map<String, String> theirs = figures(cat, "", names);
        final Map<String, String> mine = figures(ours, "", names);
        final List<String> differences = new ArrayList<>();
        for (final String key : new TreeSet<>(union(theirs.keySet(), mine.keySet())))
        {
            if (!java.util.Objects.equals(theirs.get(key), mine.get(key)))
            {
                differences.add(key + " CAT " + theirs.get(key) + " Cheetah " + mine.get(key));
            }
        }
        assertThat(differences).as(differences.size() + " of " + theirs.size() + " figures differ").isEmpty();
    }

    /**
     * CAT's Business answer is its chart page (checked against the decoded rows in {@code BusinessAnswerTest}); here
     * Cheetah's report of the imported hour (its JSON API) holds every metric CAT stored, minute by minute.
     */
    @Test
    void businessHoldsEveryMetricCatStored() throws Exception
    {
        final Map<String, String> cat = new TreeMap<>();
        for (final HourlyReportRow row : CatSqlDump.rows("business", "cat"))
        {
            for (final io.cheetah.catimport.nativeformat.CatNode item : row.decode().children("business-item"))
            {
                for (final io.cheetah.catimport.nativeformat.CatNode segment : item.children("segment"))
                {
                    cat.put(item.string("id") + "@" + segment.longValue("id", -1), segment.longValue("count", 0) +
                        " " + segment.doubleValue("sum", 0));
                }
            }
        }
        final Map<String, String> ours = new TreeMap<>();
        final com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(get("/api/v1/reports/business/native?domain=cat&date=" + HOUR));
        for (final com.fasterxml.jackson.databind.JsonNode item : json.findParents("segments"))
        {
            for (final com.fasterxml.jackson.databind.JsonNode segment : item.get("segments"))
            {
                ours.put(item.get("id").asText() + "@" + segment.get("id").asText(), segment.get("count").asText() +
                    " " + segment.get("sum").asText());
            }
        }
        assertThat(cat).isNotEmpty();
        assertThat(ours).isEqualTo(cat);
    }

    @Test
    void configurationIsTakenFromCatsTables() throws Exception
    {
        final Path config = dir.resolve("cat-config");
        final CatAlertConfig read = CatAlertConfig.read(config);
        assertThat(read.rules()).containsKeys("transaction", "event");
        assertThat(config.resolve("heartbeatRuleConfig.xml")).doesNotExist();
        for (final String name : List.of("transactionRule", "eventRule", "alertPolicy", "alertConfig", "senderConfig",
            "exceptionRuleConfig", "heartbeat-display-policy"))
        {
            assertThat(Files.readString(config.resolve(name + ".xml"))).as(name)
                .isEqualTo(query(catUrl, "SELECT content FROM config WHERE name = '" + name + "'").get(0));
        }
        assertThat(Files.readAllLines(config.resolve("project.tsv")))
            .contains("domain\towner\temail\tphone", "compat-java31\tNULL\tNULL\tNULL");
    }

    /** A server's embedded MariaDB is never stopped by the import (it would take it for an orphan and stop it). */
    @Test
    void theImportRefusesToOpenARunningServersEmbeddedDatabase() throws Exception
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ImportCommand.run(new String[] {"--from", catUrl, "--user", "root", "--password", "",
            "--no-config", "--set", "storage.dataDir=" + dir}, new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("stop the server first");
        assertThat(query(catUrl, "SELECT COUNT(*) FROM hourlyreport")).as("the database still answers")
            .containsExactly(Integer.toString(CatSqlDump.rows().size()));
    }

    @Test
    void aRerunChangesNothing() throws Exception
    {
        final Map<String, String> before = snapshot(cheetahUrl);
        final ImportSummary again = importInto(catUrl, cheetahUrl, null);
        assertThat(again.hoursWritten()).isZero();
        assertThat(again.hoursUnchanged()).isEqualTo(ledger(cheetahUrl).size());
        assertThat(again.problems()).isEmpty();
        assertThat(snapshot(cheetahUrl)).isEqualTo(before);
    }

    @Test
    void aDamagedRowIsNamedAndTheRestImported() throws Exception
    {
        final String damaged = CatDatabase.load(db, "cat_damaged");
        final int id = CatSqlDump.rows("transaction", "compat-java31").get(0).id();
        try (Connection c = DriverManager.getConnection(damaged, "root", ""); Statement s = c.createStatement())
        {
            s.executeUpdate("UPDATE hourly_report_content SET content = SUBSTRING(content, 1, 40) WHERE report_id = " +
                id);
        }
        final String target = CatDatabase.empty(db, "cheetah_damaged");
        final ImportSummary summary = importInto(damaged, target, null);
        assertThat(summary.problems()).hasSize(1);
        assertThat(summary.problems().get(0).table()).isEqualTo("hourly_report_content");
        assertThat(summary.problems().get(0).id()).isEqualTo(Integer.toString(id));
        assertThat(summary.hoursFailed()).isEqualTo(1);
        final Map<String, String> all = contents(cheetahUrl);
        final Map<String, String> rest = contents(target);
        assertThat(rest).hasSize(all.size() - 1).doesNotContainKey("compat-java31/transaction");
        all.remove("compat-java31/transaction");
        assertThat(rest).isEqualTo(all);
    }

    @Test
    void anInterruptedRunResumes() throws Exception
    {
        final String target = CatDatabase.empty(db, "cheetah_interrupted");
        final int[] commits = {0};
        assertThatThrownBy(() -> importInto(catUrl, target, key ->
        {
            if (++commits[0] == 4)
            {
                throw new IllegalStateException("killed before committing " + key);
            }
        })).hasMessageContaining("killed");
        assertThat(ledger(target)).hasSize(3);
        assertThat(contents(target)).hasSize(3);
        final ImportSummary resumed = importInto(catUrl, target, null);
        assertThat(resumed.hoursUnchanged()).isEqualTo(3);
        assertThat(contents(target)).isEqualTo(contents(cheetahUrl));
    }

    @Test
    void aConfigurationDocumentCatWouldRefuseIsNamedAndTheRestTaken() throws Exception
    {
        final String broken = CatDatabase.load(db, "cat_broken_config");
        final String id;
        try (Connection c = DriverManager.getConnection(broken, "root", ""); Statement s = c.createStatement())
        {
            s.executeUpdate("UPDATE config SET content = '<monitor-rules><rule id=\"x\"' WHERE name = 'eventRule'");
            id = query(broken, "SELECT id FROM config WHERE name = 'eventRule'").get(0);
        }
        final Path config = dir.resolve("broken-config");
        final ConfigImport imported = new ConfigImport(source(broken).dataSource(), config);
        final List<ImportProblem> problems = imported.run();
        assertThat(problems).extracting(ImportProblem::table).containsOnly("config");
        assertThat(problems).extracting(ImportProblem::id).contains(id + " (eventRule)");
        assertThat(config.resolve("eventRule.xml")).doesNotExist();
        assertThat(config.resolve("transactionRule.xml")).exists();
        assertThat(CatAlertConfig.read(config).rules()).containsKey("transaction").doesNotContainKey("event");
        // a second run writes nothing
        final ConfigImport again = new ConfigImport(source(broken).dataSource(), config);
        again.run();
        assertThat(again.written()).isEmpty();
        assertThat(again.unchanged()).isEqualTo(imported.written());
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static ImportSummary importInto(final String from, final String to,
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
            return run.run(null);
        }
    }

    private static Database source(final String url)
    {
        return Database.connect(url, "root", "", 2);
    }

    private static String get(final String path) throws Exception
    {
        final HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" +
            server.server().httpPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return r.body();
    }

    /** The report element of an answer, whatever its root ({@code <transaction><report>} or the report itself). */
    private static Element report(final String xml) throws Exception
    {
        final Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        for (final String name : List.of("report", "topReport", "top-report"))
        {
            final List<Element> reports = children(root, name);
            if (!reports.isEmpty())
            {
                return reports.get(0);
            }
        }
        return root;
    }

    private static Element machine(final Element report, final String ip)
    {
        for (final Element m : children(report, "machine"))
        {
            if (m.getAttribute("ip").equals(ip))
            {
                return m;
            }
        }
        return null;
    }

    private static Set<String> union(final Set<String> a, final Set<String> b)
    {
        final Set<String> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    /** Every listed attribute and every text-only element under an element, by its keyed path. */
    private static Map<String, String> figures(final Element parent, final String path, final Set<String> names)
    {
        final Map<String, String> out = new TreeMap<>();
        for (org.w3c.dom.Node n = parent.getFirstChild(); n != null; n = n.getNextSibling())
        {
            if (!(n instanceof Element e))
            {
                continue;
            }
            String key = e.getTagName();
            for (final String id : List.of("id", "name", "type", "ip", "target"))
            {
                if (e.hasAttribute(id))
                {
                    key += "[" + e.getAttribute(id) + "]";
                }
            }
            final String at = path + "/" + key;
            if (e.getElementsByTagName("*").getLength() == 0 && e.getAttributes().getLength() == 0)
            {
                out.merge(at, e.getTextContent(), (a, b) -> a + "," + b);
            }
            for (final String name : names)
            {
                if (e.hasAttribute(name))
                {
                    out.put(at + "@" + name, e.getAttribute(name));
                }
            }
            out.putAll(figures(e, at, names));
        }
        return out;
    }

    /** Entity id to type, status and per duration its count and sorted samples, over every machine. */
    private static Map<String, String> problems(final List<Element> machines)
    {
        final Map<String, String> out = new TreeMap<>();
        for (final Element machine : machines)
        {
            for (final Element entity : children(machine, "entity"))
            {
                final Map<Long, String> durations = new TreeMap<>();
                for (final Element duration : children(entity, "duration"))
                {
                    final List<String> messages = new ArrayList<>();
                    children(duration, "message").forEach(m -> messages.add(m.getTextContent()));
                    messages.sort(null);
                    durations.put(Long.parseLong(duration.getAttribute("value")), duration.getAttribute("count") +
                        " " + messages);
                }
                out.merge(entity.getAttribute("id"), entity.getAttribute("type") + "|" + entity.getAttribute("status")
                    + " " + durations, (a, b) -> a + " + " + b);
            }
        }
        return out;
    }

    /** Per machine and minute, the classpath and every extension detail. */
    private static Map<String, String> heartbeats(final Element report)
    {
        final Map<String, String> out = new TreeMap<>();
        for (final Element machine : children(report, "machine"))
        {
            out.put(machine.getAttribute("ip"), "classpath=" + machine.getAttribute("classpath"));
            for (final Element period : children(machine, "period"))
            {
                final Map<String, String> details = new TreeMap<>();
                for (final Element extension : children(period, "extension"))
                {
                    for (final Element detail : children(extension, "detail"))
                    {
                        details.put(extension.getAttribute("id") + "/" + detail.getAttribute("id"),
                            detail.getAttribute("value"));
                    }
                }
                out.merge(machine.getAttribute("ip") + "@" + period.getAttribute("minute"), details.toString(),
                    (a, b) -> a + " + " + b);
            }
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

    /** The import's ledger: domain/analyzer/hour to CAT's row fingerprint. */
    private static Map<String, String> ledger(final String url) throws Exception
    {
        final Map<String, String> out = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(url, "root", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT domain, analyzer, period_ms, cat_ids FROM cat_import_hour"))
        {
            while (rs.next())
            {
                out.put(rs.getString(1) + "/" + rs.getString(2) + "/" + rs.getLong(3), rs.getString(4));
            }
        }
        return out;
    }

    /** Every stored hour's content (hex), by domain/analyzer. */
    private static Map<String, String> contents(final String url) throws Exception
    {
        final Map<String, String> out = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(url, "root", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT h.domain, h.analyzer, c.content FROM hourly_report h " +
                 "JOIN hourly_report_content c ON c.report_id = h.id"))
        {
            while (rs.next())
            {
                out.put(rs.getString(1) + "/" + rs.getString(2), HexFormat.of().formatHex(rs.getBytes(3)));
            }
        }
        return out;
    }

    /** Every row the import writes, whole: hourly rows with their creation time, their content, the ledger. */
    private static Map<String, String> snapshot(final String url) throws Exception
    {
        final Map<String, String> out = new TreeMap<>(contents(url));
        for (final String sql : List.of("SELECT CONCAT_WS('|', id, domain, analyzer, server, period_ms, created_ms) " +
            "FROM hourly_report", "SELECT CONCAT_WS('|', domain, analyzer, period_ms, cat_rows, cat_ids, imported_ms) " +
            "FROM cat_import_hour"))
        {
            for (final String row : query(url, sql))
            {
                out.put(row, "");
            }
        }
        return out;
    }
}
