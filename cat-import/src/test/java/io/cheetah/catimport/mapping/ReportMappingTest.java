package io.cheetah.catimport.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import io.cheetah.analysis.heartbeat.HeartbeatReport;
import io.cheetah.analysis.problem.ProblemReport;
import io.cheetah.analysis.storage.StorageReport;
import io.cheetah.catimport.CatReportKind;
import io.cheetah.catimport.nativeformat.CatNode;
import io.cheetah.report.DomainReport;
import io.cheetah.report.MachineTally;
import io.cheetah.report.Tally;
import io.cheetah.report.TypeTally;

import org.junit.jupiter.api.Test;

/**
 * The mappings on hand-made CAT trees: every figure lands where Cheetah's model keeps it, a type's figures are its
 * names', and what CAT's rows may hold that Cheetah's model cannot (missing attributes, minutes outside the hour,
 * counts below zero, fractional durations, long sample ids) is handled as the class comments say.
 */
class ReportMappingTest
{
    private static final long HOUR = 1_795_870_800_000L;

    @Test
    void transactionNamesCarryTheirFiguresAndTypesAddThemUp()
    {
        final CatNode tree = CatNode.builder("transaction-report").attribute("domain", "shop")
            .child(CatNode.builder("machine").attribute("ip", "10.0.0.1")
                .child(CatNode.builder("type").attribute("id", "URL").text("successMessageUrl", "shop-a-1")
                    .child(name("/a", 3, 1, 30.0, 500.0, 2.4, 15.5, 0, 1, 20)
                        .child(CatNode.builder("statusCode").attribute("id", "500").attribute("count", 1L).build())
                        .build())
                    .child(name("/b", 2, 0, 10.0, 50.0, 4.0, 6.0, 59, 2, 0).build())
                    .build())
                .build())
            .build();
        final DomainReport r = (DomainReport)ReportMapping.map(CatReportKind.TRANSACTION, tree, "shop", HOUR);
        assertThat(r.domain()).isEqualTo("shop");
        assertThat(r.hourStart()).isEqualTo(HOUR);
        final MachineTally machine = r.machines().get(r.find("10.0.0.1"));
        final TypeTally type = machine.types().get(r.find("URL"));
        assertThat(type.totalCount()).isEqualTo(5);
        assertThat(type.failCount()).isEqualTo(1);
        assertThat(type.sum()).isEqualTo(40.0);
        assertThat(type.sum2()).isEqualTo(550.0);
        // CAT's fractional extremes widened to whole ms
        assertThat(type.min()).isEqualTo(2.0);
        assertThat(type.max()).isEqualTo(16.0);
        assertThat(type.successId()).isEqualTo("shop-a-1");
        final Tally a = type.names().get(r.find("/a"));
        assertThat(a.minutes().count(0)).isEqualTo(2);
        assertThat(a.minutes().count(1)).isEqualTo(1);
        assertThat(a.minutes().has(20)).isFalse();
        assertThat(a.statusCodes().get(r.find("500"))).isEqualTo(1);
        assertThat(a.sketch()).as("CAT's duration buckets").isNotNull();
        final double[] lines = new double[Tally.PERCENTS.length];
        a.lines(-1, lines);
        for (final double line : lines)
        {
            assertThat(line).isBetween(2.0, 16.0);
        }
        assertThat(type.minutes().count(59)).isEqualTo(2);
    }

    /** A name as CAT's builder writes it, with ranges in minutes m1 and m2 (count 2 and 1) and one duration. */
    private static CatNode.Builder name(final String id, final long total, final long fail, final double sum,
        final double sum2, final double min, final double max, final int m1, final int m2, final int bucket)
    {
        final CatNode.Builder b = CatNode.builder("name").attribute("id", id).attribute("totalCount", total)
            .attribute("failCount", fail).attribute("sum", sum).attribute("sum2", sum2).attribute("min", min)
            .attribute("max", max)
            .child(CatNode.builder("range").attribute("value", m1).attribute("count", 2).attribute("sum", sum / 2)
                .attribute("fails", (int)fail).attribute("min", min).attribute("max", max).build())
            .child(CatNode.builder("duration").attribute("value", bucket).attribute("count", (int)total).build());
        if (total > 2)
        {
            b.child(CatNode.builder("range").attribute("value", m2).attribute("count", 1).attribute("sum", sum / 2)
                .attribute("fails", 0).attribute("min", min).attribute("max", max).build());
        }
        return b;
    }

    @Test
    void outOfRangeAndMissingFiguresAreDroppedNotInvented()
    {
        final CatNode tree = CatNode.builder("event-report")
            .child(CatNode.builder("machine")
                .child(CatNode.builder("type").attribute("id", "Cache")
                    .child(CatNode.builder("name").attribute("id", "x".repeat(5000)).attribute("totalCount", 4L)
                        .attribute("failCount", 9L).text("successMessageUrl", "m".repeat(1000))
                        .child(CatNode.builder("range").attribute("value", 60).attribute("count", 4).build())
                        .child(CatNode.builder("range").attribute("value", -1).attribute("count", 4).build())
                        .child(CatNode.builder("range").attribute("value", 3).attribute("count", -5).build())
                        .build())
                    .build())
                .build())
            .build();
        final DomainReport r = (DomainReport)ReportMapping.map(CatReportKind.EVENT, tree, "shop", HOUR);
        final MachineTally machine = r.machines().get(r.find(""));
        assertThat(machine).as("a machine without ip").isNotNull();
        final TypeTally type = machine.types().get(r.find("Cache"));
        final Tally name = type.names().values().iterator().next();
        assertThat(name.totalCount()).isEqualTo(4);
        assertThat(name.failCount()).as("failures capped at the count").isEqualTo(4);
        assertThat(name.minutes().mask()).as("only minute 3 lies in the hour").isEqualTo(1L << 3);
        assertThat(name.minutes().count(3)).isZero();
        assertThat(name.successId()).hasSize(ReportMapping.MAX_SAMPLE);
        assertThat(r.symbols().string(type.names().keySet().iterator().next()).length()).isLessThan(5000);
    }

    @Test
    void problemEntitiesKeepCatsSamplesSortedAndCapped()
    {
        final CatNode.Builder duration = CatNode.builder("duration").attribute("value", 0).attribute("count", 70);
        for (int i = 69; i >= 0; i--)
        {
            duration.text("message", "id-" + (i % 35));
        }
        final CatNode tree = CatNode.builder("problem-report")
            .child(CatNode.builder("machine").attribute("ip", "10.0.0.2")
                .child(CatNode.builder("entity").attribute("id", "error:E").attribute("type", "error")
                    .attribute("status", "E").child(duration.build())
                    .child(CatNode.builder("thread").attribute("id", "main").attribute("group-name", "main")
                        .attribute("name", "main-1")
                        .child(CatNode.builder("segment").attribute("id", 7).attribute("count", 70).build())
                        .child(CatNode.builder("segment").attribute("id", 99).attribute("count", 1).build())
                        .build())
                    .build())
                .child(CatNode.builder("entity").attribute("type", "error").attribute("status", "A").build())
                .build())
            .build();
        final ProblemReport r = (ProblemReport)ReportMapping.map(CatReportKind.PROBLEM, tree, "shop", HOUR);
        final ProblemReport.Machine m = r.machine("10.0.0.2");
        assertThat(m.entities()).extracting(ProblemReport.Entity::status).containsExactly("A", "E");
        final ProblemReport.Duration d = m.entity("error", "E").duration(0);
        assertThat(d.count()).isEqualTo(70);
        assertThat(d.messages()).hasSize(ProblemReport.MAX_SAMPLES).isSorted();
        assertThat(d.messages().subList(0, 2)).containsExactly("id-0", "id-0");
        assertThat(m.entity("error", "E").threads().get(0).segments()).extracting(ProblemReport.Segment::minute)
            .containsExactly(7);
    }

    @Test
    void heartbeatKeepsTheLastPeriodOfAMinute()
    {
        final CatNode.Builder machine = CatNode.builder("machine").attribute("ip", "10.0.0.3")
            .attribute("classpath", "app.jar");
        for (final double beat : new double[] {1, 2, Double.NaN})
        {
            machine.child(CatNode.builder("period").attribute("minute", 5)
                .child(CatNode.builder("extension").attribute("id", "System")
                    .child(CatNode.builder("detail").attribute("id", "LoadAverage").attribute("value", beat).build())
                    .build())
                .build());
        }
        machine.child(CatNode.builder("period").attribute("minute", 1).build());
        final HeartbeatReport r = (HeartbeatReport)ReportMapping.map(CatReportKind.HEARTBEAT,
            CatNode.builder("heartbeat-report").child(machine.build()).build(), "shop", HOUR);
        final HeartbeatReport.Machine m = r.machine("10.0.0.3");
        assertThat(m.classpath()).isEqualTo("app.jar");
        assertThat(m.periods()).extracting(HeartbeatReport.Period::minute).containsExactly(1, 5);
        assertThat(m.periods().get(1).extension("System").details()).as("a value that is no number is dropped")
            .isEmpty();
    }

    @Test
    void everyKindIsMapped()
    {
        for (final CatReportKind kind : CatReportKind.values())
        {
            assertThat(ReportMapping.mapped(kind)).as(kind.name()).isTrue();
        }
        assertThat(ReportMapping.mapped(null)).isFalse();
    }

    @Test
    void storageKeepsMachinesDomainsOperationsMinutesAndStatements()
    {
        final CatNode tree = CatNode.builder("storage-report").attribute("id", "shop-db").attribute("type", "SQL")
            .text("id", "shop-db").text("id", "other-db")
            .child(CatNode.builder("machine").attribute("id", "10.1.1.1")
                .child(CatNode.builder("domain").attribute("id", "shop")
                    .child(CatNode.builder("operation").attribute("id", "select").attribute("count", 5L)
                        .child(CatNode.builder("segment").attribute("id", 3).attribute("count", 3L)
                            .attribute("sum", 30.4).attribute("error", 1L).attribute("long-count", 0L).build())
                        .child(CatNode.builder("segment").attribute("id", 4).attribute("count", 2L)
                            .attribute("sum", 9.6).attribute("error", 0L).attribute("long-count", 1L).build())
                        .child(CatNode.builder("segment").attribute("id", 75).attribute("count", 9L).build())
                        .build())
                    .child(CatNode.builder("sql").attribute("id", "s1").attribute("statement", "SELECT 1")
                        .attribute("count", 5).build())
                    .build())
                .build())
            .build();
        final StorageReport r = (StorageReport)ReportMapping.map(CatReportKind.STORAGE, tree, "shop-db-SQL", HOUR);
        assertThat(r.id()).isEqualTo("shop-db");
        assertThat(r.type()).isEqualTo("SQL");
        assertThat(r.ids()).containsExactly("other-db", "shop-db");
        final StorageReport.Operation select = r.find("10.1.1.1").find("shop").find("select");
        assertThat(select.segments()).extracting(StorageReport.Segment::minute).containsExactly(3, 4);
        final StorageReport.Segment total = select.total();
        assertThat(total.count()).isEqualTo(5);
        assertThat(total.sumMillis()).isEqualTo(40);
        assertThat(total.error()).isEqualTo(1);
        assertThat(total.longCount()).isEqualTo(1);
        assertThat(r.find("10.1.1.1").find("shop").statements())
            .containsExactly(new StorageReport.Statement("s1", "SELECT 1", 5));
    }
}
