package io.cheetah.server.cluster;

import io.cheetah.client.CatClient;
import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.report.DomainReport;
import io.cheetah.report.SymbolTable;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.query.LiveReports;
import io.cheetah.server.query.ReportSource;
import io.cheetah.server.storage.mysql.EmbeddedMariaDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17: three servers on loopback sharing one MariaDB. The router spreads domains over them (every member
 * answers alike), trees sent to any of them show in the merged report of any member exactly, a member that stops
 * leaves the router at once and a member that does not answer is named in the answer, and a member restarted on its
 * data directory brings its part back: nothing lost.
 */
class ClusterSystemTest
{
    /** The servers' (manual) clock starts at the wall clock's time, so that a real client's trees are in its hour. */
    private static final long NOW = System.currentTimeMillis();
    private static final long HOUR = HourWindow.hourOf(NOW);
    private static final int TREES = 3_000;
    private static final Pattern ROUTERS = Pattern.compile("\"routers\":\"([^\"]*)\"");

    @TempDir
    static Path dir;
    private static EmbeddedMariaDb db;

    @BeforeAll
    static void database() throws Exception
    {
        db = EmbeddedMariaDb.start(dir.resolve("mysql"), 0);
    }

    @AfterAll
    static void stopDatabase()
    {
        if (db != null)
        {
            db.close();
        }
    }

    private static FullServer start(final String id, final ManualClock clock) throws Exception
    {
        return FullServer.start(TestServers.config("storage.dataDir=" + dir.resolve(id), "storage.mysql.url=" +
            db.jdbcUrl(), "storage.mysql.user=root", "storage.timeZone=UTC", "storage.serverId=" + id,
            "cluster.enabled=true", "cluster.heartbeatMillis=200", "cluster.zone=z-" + id,
            "cluster.peerTimeoutMillis=1500"), clock, false);
    }

    @Test
    void membersShareDomainsMergeOpenHoursExactlyAndLoseNothingWhenOneRestarts() throws Exception
    {
        final ManualClock clock = new ManualClock(NOW);
        final Map<String, FullServer> servers = new LinkedHashMap<>();
        try
        {
            for (final String id : List.of("node-a", "node-b", "node-c"))
            {
                servers.put(id, start(id, clock));
            }
            for (final FullServer s : servers.values())
            {
                await(() -> ids(s).equals(List.of("node-a", "node-b", "node-c")), 10_000);
            }

            // the router: every member gives a domain the same primary and fallback, and domains spread over them
            final Map<String, List<String>> routes = new TreeMap<>();
            final Map<Integer, String> byTcpPort = new HashMap<>();
            servers.forEach((id, s) -> byTcpPort.put(s.server().tcpPort(), id));
            final Map<String, byte[]> frames = framesByDomain(FaultTraffic.stdMix(7, NOW, TREES));
            for (final String domain : frames.keySet())
            {
                final List<String> answers = new ArrayList<>();
                for (final FullServer s : servers.values())
                {
                    answers.add(routers(s, domain));
                }
                assertThat(new TreeSet<>(answers)).as("every member routes " + domain + " alike").hasSize(1);
                final List<String> endpoints = List.of(answers.get(0).split(";"));
                assertThat(endpoints).hasSize(2).doesNotHaveDuplicates();
                routes.put(domain, endpoints);
            }
            final Map<String, Long> primaries = new TreeMap<>();
            routes.values().forEach(e -> primaries.merge(byTcpPort.get(port(e.get(0))), 1L, Long::sum));
            assertThat(primaries).as("domains spread over the members").hasSize(3);

            // trees of each domain go to its primary; one domain's trees are split over all three, as after a failover
            final String split = frames.keySet().iterator().next();
            for (final Map.Entry<String, byte[]> e : frames.entrySet())
            {
                if (e.getKey().equals(split))
                {
                    final List<byte[]> list = Vectors.frames(e.getValue());
                    int i = 0;
                    for (final FullServer s : servers.values())
                    {
                        final ByteArrayOutputStream part = new ByteArrayOutputStream();
                        for (int j = i; j < list.size(); j += 3)
                        {
                            part.writeBytes(list.get(j));
                        }
                        FaultTraffic.send(s.server().tcpPort(), part.toByteArray());
                        i++;
                    }
                }
                else
                {
                    FaultTraffic.send(port(routes.get(e.getKey()).get(0)), e.getValue());
                }
            }
            await(() -> servers.values().stream().mapToLong(s -> s.server().counters().treesReceived.sum()).sum() >=
                TREES, 20_000);
            for (final FullServer s : servers.values())
            {
                assertThat(s.server().drain(20_000)).isTrue();
            }

            // a logview search on any member lists every tree of the split domain once, from all three members
            final List<String> splitIds = new ArrayList<>();
            for (final byte[] f : Vectors.frames(frames.get(split)))
            {
                final FlatTree t = new FlatTree();
                new TreeDecoder().decodeFrame(f, 0, f.length, t);
                splitIds.add(t.messageId());
            }
            assertThat(searchIds(servers.get("node-b").server().httpPort(), split)).as("searched through node-b")
                .containsExactlyInAnyOrderElementsOf(splitIds);

            // any member answers any domain with the sum of every member's own part, exactly
            final Map<String, Map<String, String>> expected = new TreeMap<>();
            for (final String domain : frames.keySet())
            {
                final Map<String, long[]> sum = new TreeMap<>();
                for (final FullServer s : servers.values())
                {
                    add(sum, s.server().reports(), domain);
                }
                expected.put(domain, text(sum));
                for (final FullServer s : servers.values())
                {
                    assertThat(tallies(s.reports(), domain)).as(domain + " merged").isEqualTo(expected.get(domain));
                }
            }
            assertThat(expected.get(split).values().stream().mapToLong(v -> Long.parseLong(v.split(" ")[0])).sum())
                .as("the split domain counted once per transaction").isEqualTo(transactions(frames.get(split)));
            assertThat(servers.get("node-a").reports().domains("transaction", HOUR)).containsAll(frames.keySet());

            // over HTTP too, with nothing missing
            final HttpResponse<String> xml = FaultTraffic.get(servers.get("node-b").server().httpPort(),
                "/cat/r/model/transaction/" + split + "/CURRENT?op=xml");
            assertThat(xml.statusCode()).isEqualTo(200);
            assertThat(xml.headers().firstValue(MissingMembersHeader.HEADER)).isEmpty();

            // a real client, configured with the one member its domain is not routed to, asks that member's router
            // and moves to the domain's primary
            final String clientDomain = "cluster-client";
            final List<String> clientRoute = List.of(routers(servers.get("node-a"), clientDomain).split(";"));
            final String primaryOfClient = byTcpPort.get(port(clientRoute.get(0)));
            final FullServer outsider = servers.values().stream().filter(x -> !clientRoute.contains("127.0.0.1:" +
                x.server().tcpPort())).findFirst().orElseThrow();
            final long[] logged = {0};
            try (CatClient client = CatClient.start(ClientConfig.builder().domain(clientDomain).ip("10.7.0.1")
                .hostname("client-host").servers(List.of(new ServerAddress("127.0.0.1", outsider.server().tcpPort(),
                    outsider.server().httpPort()))).build()))
            {
                await(() ->
                {
                    client.newTransaction("URL", "/cluster/checkout").complete();
                    logged[0]++;
                    pause(50);
                    clock.set(clock.millis() + LiveReports.CACHE_MILLIS); // answers are cached a second
                    return urlCount(servers.get(primaryOfClient).server().reports(), clientDomain) > 0;
                }, 20_000);
                for (int i = 0; i < 100; i++)
                {
                    client.newTransaction("URL", "/cluster/checkout").complete();
                }
                logged[0] += 100;
            }
            await(() ->
            {
                clock.set(clock.millis() + LiveReports.CACHE_MILLIS);
                pause(50);
                return urlCount(servers.get("node-c").reports(), clientDomain) == logged[0];
            }, 20_000);
            assertThat(urlCount(servers.get(primaryOfClient).server().reports(), clientDomain))
                .as("once routed, on the primary " + primaryOfClient).isGreaterThan(100);

            // a logview look-up on any member finds a tree that another member stored
            final String elsewhere = frames.keySet().stream().filter(d -> !d.equals(split) &&
                "node-c".equals(byTcpPort.get(port(routes.get(d).get(0))))).findFirst().orElseThrow();
            final byte[] sent = Vectors.frames(frames.get(elsewhere)).get(0);
            final FlatTree tree = new FlatTree();
            new TreeDecoder().decodeFrame(sent, 0, sent.length, tree);
            final HttpResponse<byte[]> found = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" +
                    servers.get("node-a").server().httpPort() + "/cat/r/m/" + tree.messageId() + "?raw=true")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
            assertThat(found.statusCode()).as("found on node-c through node-a").isEqualTo(200);
            assertThat(found.body()).isEqualTo(sent);

            // node-c stops: it leaves the router at once; its part is gone from the answers until it is back
            servers.remove("node-c").close();
            await(() -> ids(servers.get("node-a")).equals(List.of("node-a", "node-b")), 10_000);
            final String after = routers(servers.get("node-a"), split);
            assertThat(after.split(";")).hasSize(2);
            assertThat(tallies(servers.get("node-a").reports(), split)).isNotEqualTo(expected.get(split));

            // a member that is registered but does not answer is named in the answer; one that stopped beating is out
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "root", "");
                 PreparedStatement ps = c.prepareStatement("INSERT INTO cluster_member VALUES ('ghost', " +
                     "'127.0.0.1:1', 'http://127.0.0.1:1', '', 0, ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000) + 60000)"))
            {
                ps.executeUpdate();
                // and one whose heartbeat is older than three periods: out
                c.createStatement().executeUpdate("INSERT INTO cluster_member VALUES ('stale', '127.0.0.1:2', " +
                    "'http://127.0.0.1:2', '', 0, ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000) - 5000)");
            }
            await(() -> ids(servers.get("node-a")).equals(List.of("ghost", "node-a", "node-b")), 10_000);
            final HttpResponse<String> partial = FaultTraffic.get(servers.get("node-a").server().httpPort(),
                "/cat/r/model/transaction/" + split + "/CURRENT?op=xml");
            assertThat(partial.statusCode()).isEqualTo(200);
            assertThat(partial.headers().firstValue(MissingMembersHeader.HEADER))
                .hasValue("ghost@" + java.time.Instant.ofEpochMilli(HOUR));
            assertThat(FaultTraffic.value(FaultTraffic.metrics(servers.get("node-a").server().httpPort()),
                "cheetah_cluster_peer_failures_total")).isPositive();
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "root", ""))
            {
                c.createStatement().executeUpdate("DELETE FROM cluster_member WHERE server_id IN ('ghost', 'stale')");
            }
            for (final FullServer s : servers.values())
            {
                await(() -> ids(s).equals(List.of("node-a", "node-b")), 10_000);
            }

            // node-c restarts on its data directory: its open hour comes back, and with it the exact totals
            servers.put("node-c", start("node-c", clock));
            for (final FullServer s : servers.values())
            {
                await(() -> ids(s).equals(List.of("node-a", "node-b", "node-c")), 10_000);
            }
            clock.set(clock.millis() + LiveReports.CACHE_MILLIS); // no answer cached before the restart
            for (final String domain : frames.keySet())
            {
                for (final FullServer s : servers.values())
                {
                    assertThat(tallies(s.reports(), domain)).as(domain + " after the restart")
                        .isEqualTo(expected.get(domain));
                }
            }
            // the hour closes on every member: each stores its own rows, and any member reads the merged hour back
            clock.set(HOUR + HourWindow.HOUR + HourWindow.EXTRA + 1_000);
            for (final FullServer s : servers.values())
            {
                s.server().tick();
            }
            for (final FullServer s : servers.values())
            {
                assertThat(s.server().drain(30_000)).isTrue();
                await(() -> s.store().storedReports() > 0 && s.store().pendingReports() == 0, 60_000);
            }
            for (final FullServer s : servers.values())
            {
                assertThat(tallies(s.reports(), split)).as("closed hour from MySQL").isEqualTo(expected.get(split));
            }
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "root", "");
                 java.sql.ResultSet rs = c.createStatement().executeQuery("SELECT server FROM hourly_report WHERE " +
                     "analyzer = 'transaction' AND domain = '" + split + "' AND period_ms = " + HOUR +
                     " ORDER BY server"))
            {
                final List<String> rows = new ArrayList<>();
                while (rs.next())
                {
                    rows.add(rs.getString(1));
                }
                assertThat(rows).as("one row per member").containsExactly("node-a", "node-b", "node-c");
            }
            // the roll-ups of that day: all three members work the task queue at once, and each period is built once
            final long later = HOUR + 3 * 24 * HourWindow.HOUR;
            final List<Thread> workers = new ArrayList<>();
            final java.util.concurrent.atomic.AtomicReference<Exception> failure = new java.util.concurrent.atomic
                .AtomicReference<>();
            for (final FullServer s : servers.values())
            {
                final Thread t = new Thread(() ->
                {
                    try
                    {
                        while (s.store().rollups().runOnce(later) > 0)
                        {
                            Thread.onSpinWait();
                        }
                    }
                    catch (final Exception e)
                    {
                        failure.set(e);
                    }
                });
                t.start();
                workers.add(t);
            }
            for (final Thread t : workers)
            {
                t.join(120_000);
            }
            assertThat(failure.get()).isNull();
            final long built = servers.values().stream().mapToLong(s -> s.store().rollups().built()).sum();
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "root", "");
                 java.sql.ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*), SUM(attempts), " +
                     "COUNT(DISTINCT claimed_by) FROM rollup_task WHERE status = 'done'"))
            {
                // the days are built; their weeks and months wait for their periods to end
                rs.next();
                assertThat(rs.getLong(1)).as("roll-ups done").isPositive();
                assertThat(rs.getLong(2)).as("each claimed once").isEqualTo(rs.getLong(1));
                assertThat(built).as("each built once").isEqualTo(rs.getLong(1));
                System.out.println("ClusterSystemTest: " + built + " roll-ups built once each by " + rs.getLong(3) +
                    " members");
            }
            System.out.println("ClusterSystemTest: " + frames.size() + " domains, primaries " + primaries +
                ", split domain " + split + " over three members; merged answers exact before and after node-c's " +
                "restart");
        }
        finally
        {
            for (final FullServer s : servers.values())
            {
                s.close();
            }
        }
    }

    /** Follows every page of a search for all trees of a domain in the hour; none may repeat. */
    private static List<String> searchIds(final int httpPort, final String domain) throws Exception
    {
        final com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        final List<String> ids = new ArrayList<>();
        String next = null;
        do
        {
            final HttpResponse<String> r = FaultTraffic.get(httpPort, "/api/v1/logview/search?limit=7&domain=" +
                domain + "&from=" + (HOUR - 3_600_000L) + "&to=" + (HOUR + 7_200_000L) +
                (next == null ? "" : "&cursor=" + next));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            final com.fasterxml.jackson.databind.JsonNode body = json.readTree(r.body());
            assertThat(body.has("missingMembers")).as(r.body()).isFalse();
            for (final com.fasterxml.jackson.databind.JsonNode t : body.get("trees"))
            {
                ids.add(t.get("messageId").asText());
            }
            next = body.get("next").isNull() ? null : body.get("next").asText();
        }
        while (next != null);
        assertThat(ids).doesNotHaveDuplicates();
        return ids;
    }

    private static void pause(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** URL transactions of a domain in the hour of the client's trees (or the next, if the test crossed one). */
    private static long urlCount(final ReportSource source, final String domain)
    {
        long n = 0;
        for (final long hour : new long[] {HOUR, HOUR + HourWindow.HOUR})
        {
            final DomainReport r = (DomainReport)source.report("transaction", domain, hour);
            if (r != null)
            {
                final int url = r.symbols().find("URL");
                final long[] count = {0};
                r.machines().forEach((ip, m) ->
                {
                    final var type = url < 0 ? null : m.types().get(url);
                    count[0] += type == null ? 0 : type.totalCount();
                });
                n += count[0];
            }
        }
        return n;
    }

    private static List<String> ids(final FullServer s)
    {
        return s.membership().live().stream().map(Member::id).toList();
    }

    private static String routers(final FullServer s, final String domain) throws Exception
    {
        final String body = FaultTraffic.get(s.server().httpPort(), "/cat/s/router?op=json&domain=" + domain).body();
        final Matcher m = ROUTERS.matcher(body);
        assertThat(m.find()).as(body).isTrue();
        return m.group(1);
    }

    private static int port(final String endpoint)
    {
        return Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
    }

    private static Map<String, byte[]> framesByDomain(final byte[] all) throws Exception
    {
        final TreeDecoder decoder = new TreeDecoder();
        final FlatTree tree = new FlatTree();
        final Map<String, ByteArrayOutputStream> by = new TreeMap<>();
        for (final byte[] f : Vectors.frames(all))
        {
            decoder.decodeFrame(f, 0, f.length, tree);
            by.computeIfAbsent(tree.domain(), d -> new ByteArrayOutputStream()).writeBytes(f);
        }
        final Map<String, byte[]> out = new TreeMap<>();
        by.forEach((d, b) -> out.put(d, b.toByteArray()));
        return out;
    }

    private static long transactions(final byte[] frames) throws Exception
    {
        final TreeDecoder decoder = new TreeDecoder();
        final FlatTree tree = new FlatTree();
        long n = 0;
        for (final byte[] f : Vectors.frames(frames))
        {
            decoder.decodeFrame(f, 0, f.length, tree);
            for (int i = 0; i < tree.size(); i++)
            {
                n += tree.isTransaction(i) ? 1 : 0;
            }
        }
        return n;
    }

    private static void add(final Map<String, long[]> sum, final ReportSource source, final String domain)
    {
        final DomainReport r = (DomainReport)source.report("transaction", domain, HOUR);
        if (r == null)
        {
            return;
        }
        final SymbolTable s = r.symbols();
        r.machines().forEach((ip, m) -> m.types().forEach((t, type) -> type.names().forEach((n, name) ->
            {
                final long[] c = sum.computeIfAbsent(s.string(ip) + " " + s.string(t) + " / " + s.string(n),
                    k -> new long[2]);
                c[0] += name.totalCount();
                c[1] += name.failCount();
            })));
    }

    private static Map<String, String> tallies(final ReportSource source, final String domain)
    {
        final Map<String, long[]> sum = new TreeMap<>();
        add(sum, source, domain);
        return text(sum);
    }

    private static Map<String, String> text(final Map<String, long[]> sum)
    {
        final Map<String, String> out = new TreeMap<>();
        sum.forEach((k, c) -> out.put(k, c[0] + " (" + c[1] + ")"));
        return out;
    }

    private static void await(final BooleanSupplier condition, final long millis) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as("in time").isTrue();
    }
}
