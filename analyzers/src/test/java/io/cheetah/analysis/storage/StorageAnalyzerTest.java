package io.cheetah.analysis.storage;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.analysis.TreeBuilder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.cheetah.analysis.TreeBuilder.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

class StorageAnalyzerTest
{
    private static final long MINUTE_5 = HOUR + 5 * 60_000L;
    private static final long MINUTE_6 = HOUR + 6 * 60_000L;

    private static void sql(final TreeBuilder b, final int parent, final String name, final String status,
        final long ts, final long micros, final String method, final String url, final String statement)
    {
        final int t = b.tx(parent, "SQL", name, status, ts, micros, statement);
        if (method != null)
        {
            b.event(t, "SQL.Method", method, "0", ts, "");
        }
        if (url != null)
        {
            b.event(t, "SQL.Database", url, "0", ts, "");
        }
    }

    @Test
    void sqlCallsCountPerDatabaseMachineDomainOperationAndMinuteAsCatDoes() throws IOException
    {
        final StorageAnalyzer a = new StorageAnalyzer(AnalyzerContext.single());
        final TreeBuilder one = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
        final int root = one.tx(-1, "URL", "/pay", "0", MINUTE_5, 90_000, "");
        sql(one, root, "Order.find", "0", MINUTE_5, 3_900, "SELECT", "jdbc:mysql://db-1:3306/orders?x=1",
            "select *\n  from orders\twhere id = ?");
        sql(one, root, "Order.find", "0", MINUTE_5 + 10, 1_500_700, "SELECT", "jdbc:mysql://db-1:3306/orders", "x");
        sql(one, root, "Order.insert", "java.sql.SQLException", MINUTE_6, 2_000, "INSERT",
            "jdbc:mysql://db-1:3306/orders", "insert into orders values (?)");
        sql(one, root, "NoMethod", "0", MINUTE_6, 5_000, null, "jdbc:mysql://db-2/orders", "");    // CAT: select
        sql(one, root, "NoDatabase", "0", MINUTE_6, 5_000, "SELECT", null, "");                    // not a store call
        sql(one, root, "Pg", "0", MINUTE_6, 5_000, "SELECT", "jdbc:postgresql://pg/app", "");       // unrecognised
        assertThat(StorageAnalyzer.holdsStoreCall(one.tree())).isTrue();
        a.process(one.tree(), HOUR);
        final TreeBuilder two = new TreeBuilder("cart", "10.0.1.1", "cart-0a000101-498699-2");
        sql(two, -1, "Cart.get", "0", MINUTE_5, 1_000, "Select", "jdbc:mysql://db-1:3306/orders", "select 1");
        a.process(two.tree(), HOUR);

        assertThat(a.domains(HOUR)).containsExactly("orders-SQL");
        final StorageReport r = (StorageReport)a.snapshot(HOUR, "orders-SQL");
        assertThat(r.id()).isEqualTo("orders");
        assertThat(r.type()).isEqualTo("SQL");
        assertThat(r.ids()).containsExactly("orders");
        assertThat(r.ips()).containsExactly("db-1", "db-2");
        assertThat(r.ops()).containsExactly("insert", "select");
        final StorageReport.Domain shop = r.find("db-1").find("shop");
        assertThat(shop.find("select").segments()).containsExactly(
            new StorageReport.Segment(5, 2, 3 + 1500, 0, 1));                    // 1,500 ms > 1,000: long
        assertThat(shop.find("insert").segments()).containsExactly(new StorageReport.Segment(6, 1, 2, 1, 0));
        assertThat(shop.statements()).containsExactly(
            new StorageReport.Statement("Order.find", "select * from orders where id = ?", 2),
            new StorageReport.Statement("Order.insert", "insert into orders values (?)", 1));
        assertThat(r.find("db-1").find("cart").find("select").total())
            .isEqualTo(new StorageReport.Segment(-1, 1, 1, 0, 0));
        assertThat(r.find("db-2").find("shop").find("select").total().count()).isEqualTo(1);
        assertThat(a.counters().get(StorageLoss.CONNECTION_UNRECOGNIZED)).isEqualTo(1);

        final StringBuilder xml = new StringBuilder();
        new StorageReportFormat().writeXml(r, new ReportQuery("db-1", null, null, HOUR, ReportQuery.Mode.MODEL), xml);
        assertThat(xml.toString())
            .contains("<storage-report id=\"orders-SQL\" name=\"orders\" type=\"SQL\" startTime=\"")
            .contains("<id>orders</id>").contains("<ip>db-1</ip>").contains("<ip>db-2</ip>").contains("<op>insert</op>")
            .contains("<machine id=\"db-1\">").doesNotContain("<machine id=\"db-2\">")
            .contains("<operation id=\"select\" count=\"2\" avg=\"751.5\" sum=\"1503.0\" error=\"0\" long-count=\"1\">")
            .contains("<segment id=\"5\" count=\"2\" avg=\"751.5\" sum=\"1503.0\" error=\"0\" long-count=\"1\"/>")
            .contains("<sql id=\"Order.find\" statement=\"select * from orders where id = ?\" count=\"2\"/>");
    }

    @Test
    void cacheAndRpcCallsAreReadFromTheirTypeNameAndServerEvents()
    {
        final StorageAnalyzer a = new StorageAnalyzer(AnalyzerContext.single());
        final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
        final int root = b.tx(-1, "URL", "/pay", "0", MINUTE_5, 90_000, "");
        int c = b.tx(root, "Cache.redis", "user:{id}:get", "0", MINUTE_5, 60_000, "");
        b.event(c, "Cache.redis.server", "10.1.0.1:6379", "0", MINUTE_5, "");
        c = b.tx(root, "Cache.redis", "user:{id}:get", "ERROR", MINUTE_5, 10_000, "");
        b.event(c, "Cache.redis.server", "10.1.0.1:6379", "0", MINUTE_5, "");
        b.tx(root, "Squirrel.kv", "mGet", "0", MINUTE_5, 1_000, "");                      // no server: default
        c = b.tx(root, "PigeonCall", "Order.place", "0", MINUTE_6, 250_000, "");
        b.event(c, "PigeonCall.app", "order-service", "0", MINUTE_6, "");
        b.event(c, "PigeonCall.server", "10.2.0.9:4080", "0", MINUTE_6, "");
        c = b.tx(root, "Call", "Order.place", "0", MINUTE_6, 250_000, "");                  // Call.app: not RPC
        b.event(c, "Call.app", "order-service", "0", MINUTE_6, "");
        b.tx(root, "Cache.", "k", "0", MINUTE_6, 1_000, "");                                // empty id: skipped
        a.process(b.tree(), HOUR);

        assertThat(a.domains(HOUR)).containsExactly("kv-Cache", "redis-Cache", "order-service-RPC");
        final StorageReport redis = (StorageReport)a.snapshot(HOUR, "redis-Cache");
        assertThat(redis.ids()).containsExactly("kv", "redis");
        assertThat(redis.find("10.1.0.1").find("shop").find("get").segments())
            .containsExactly(new StorageReport.Segment(5, 2, 70, 1, 1));                      // 60 ms > 50: long
        assertThat(redis.find("10.1.0.1").find("shop").statements()).isEmpty();
        final StorageReport kv = (StorageReport)a.snapshot(HOUR, "kv-Cache");
        assertThat(kv.find("default").find("shop").find("mGet").total().count()).isEqualTo(1);
        final StorageReport rpc = (StorageReport)a.snapshot(HOUR, "order-service-RPC");
        assertThat(rpc.id()).isEqualTo("order-service");
        assertThat(rpc.find("10.2.0.9").find("shop").find("call").segments())
            .containsExactly(new StorageReport.Segment(6, 1, 250, 0, 1));
        assertThat(a.snapshot(HOUR, "shop")).isNull();
        assertThat(a.snapshot(HOUR, "redis-SQL")).isNull();
    }

    @Test
    void treesWithoutAStoreCallNeverReachIt()
    {
        final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
        final int root = b.tx(-1, "URL", "/pay", "0", MINUTE_5, 1_000, "");
        b.event(root, "SQL", "not a transaction", "0", MINUTE_5, "");
        b.tx(root, "Cache", "no dot", "0", MINUTE_5, 1_000, "");
        assertThat(StorageAnalyzer.TYPE.accepts(b.tree())).isFalse();
        b.tx(root, "Squirrel.x", "k:get", "0", MINUTE_5, 1_000, "");
        assertThat(StorageAnalyzer.TYPE.accepts(b.tree())).isTrue();
        assertThat(StorageAnalyzer.TYPE.serverWide()).isTrue();
    }

    @Test
    void capsFoldIntoOthersAndCountEveryFoldAndDrop()
    {
        final StorageAnalyzer a = new StorageAnalyzer(new AnalyzerContext(0, 1, new ReportLimits(2, 2, 2, 2, 10, 256,
            1000)));
        for (int db = 0; db < 3; db++)
        {
            for (int k = 0; k < 3; k++)
            {
                final TreeBuilder b = new TreeBuilder("d" + k, "10.0.0.1", "d-0a000001-498699-" + k);
                for (int op = 0; op < 3; op++)
                {
                    sql(b, -1, "S" + op, "0", MINUTE_5, 1_000, "OP" + op, "jdbc:mysql://h" + k + "/db" + db, "s");
                }
                a.process(b.tree(), HOUR);
            }
        }
        assertThat(a.domains(HOUR)).containsExactly("OTHERS-SQL", "db0-SQL", "db1-SQL");
        final StorageReport db0 = (StorageReport)a.snapshot(HOUR, "db0-SQL");
        assertThat(db0.ips()).containsExactly("OTHERS", "h0", "h1");
        assertThat(db0.find("h0").find("d0").operations()).extracting(StorageReport.Operation::name)
            .containsExactly("OTHERS", "op0", "op1");
        assertThat(db0.find("h0").find("d0").find("OTHERS").total().count()).isEqualTo(1);
        assertThat(db0.find("h0").find("d0").statements()).extracting(StorageReport.Statement::id)
            .containsExactly("OTHERS", "S0", "S1");
        final StorageReport others = (StorageReport)a.snapshot(HOUR, "OTHERS-SQL");
        assertThat(others.find("h0").find("d0").find("op0").total().count()).isEqualTo(1);
        assertThat(a.counters().get(StorageLoss.ID_FOLDED)).isEqualTo(9);
        assertThat(a.counters().get(StorageLoss.MACHINE_FOLDED)).isEqualTo(9);
        assertThat(a.counters().get(StorageLoss.OPERATION_FOLDED)).isEqualTo(9);
        assertThat(a.counters().get(StorageLoss.STATEMENT_FOLDED)).isEqualTo(9);
        assertThat(a.counters().get(StorageLoss.OPERATION_DROPPED)).isZero();

        // the hour's operations are bounded: 40 / 8 = 5 over every store (x0 a b, x1 a b, OTHERS a; OTHERS b twice)
        final StorageAnalyzer small = new StorageAnalyzer(new AnalyzerContext(0, 1, new ReportLimits(2, 2, 2, 2, 10,
            256, 40)));
        for (int db = 0; db < 4; db++)
        {
            final TreeBuilder b = new TreeBuilder("d", "10.0.0.1", "d-0a000001-498699-" + db);
            sql(b, -1, "S", "0", MINUTE_5, 1_000, "A", "jdbc:mysql://h/x" + db, "s");
            sql(b, -1, "S", "0", MINUTE_5, 1_000, "B", "jdbc:mysql://h/x" + db, "s");
            small.process(b.tree(), HOUR);
        }
        assertThat(small.counters().get(StorageLoss.OPERATION_DROPPED)).isEqualTo(2);
        final Map<String, Long> losses = new HashMap<>();
        small.losses(losses::put);
        assertThat(losses).containsEntry("operation_dropped", 2L);
    }

    @Test
    void closingAnHourHandsOverEveryStoreAndARestoredReportCountsOn()
    {
        final StorageAnalyzer a = new StorageAnalyzer(AnalyzerContext.single());
        final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
        sql(b, -1, "Q", "0", MINUTE_5, 2_000, "UPDATE", "jdbc:mysql://db/a", "update t");
        final int c = b.tx(-1, "Cache.memcached", "k:add", "0", MINUTE_6, 1_000, "");
        b.event(c, "Cache.memcached.server", "10.1.0.2:11211", "0", MINUTE_6, "");
        a.process(b.tree(), HOUR);
        a.process(b.tree(), HOUR);
        final StorageReport before = (StorageReport)a.snapshot(HOUR, "a-SQL");

        final StorageAnalyzer restarted = new StorageAnalyzer(AnalyzerContext.single());
        restarted.restore(before);
        restarted.restore(a.snapshot(HOUR, "memcached-Cache"));
        assertThat(restarted.snapshot(HOUR, "a-SQL")).isEqualTo(before);
        restarted.process(b.tree(), HOUR);
        final List<Report> closed = restarted.closeHour(HOUR);
        assertThat(closed).extracting(Report::domain).containsExactly("a-SQL", "memcached-Cache");
        final StorageReport sql = (StorageReport)closed.get(0);
        assertThat(sql.find("db").find("shop").find("update").total()).isEqualTo(new StorageReport.Segment(-1, 3, 6, 0, 0));
        assertThat(sql.find("db").find("shop").statements())
            .containsExactly(new StorageReport.Statement("Q", "update t", 3));
        assertThat(((StorageReport)closed.get(1)).find("10.1.0.2").find("shop").find("add").total().count())
            .isEqualTo(3);
        assertThat(restarted.domains(HOUR)).isEmpty();
        assertThat(restarted.closeHour(HOUR)).isEmpty();
    }
}
