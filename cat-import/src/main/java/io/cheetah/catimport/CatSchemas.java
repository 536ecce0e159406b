package io.cheetah.catimport;

import io.cheetah.catimport.nativeformat.NativeSchema;

/**
 * The field numbers of CAT 3.1.0's report models, one method per kind. Read off the model files (codegen attributes
 * first, then what the model file adds; entity references from 33; {@code render="false"} parts unnumbered) and
 * checked against the blobs a CAT 3.1.0 server stored (test vectors {@code cat-mysql}): every one decodes to its end.
 * Codes: I int, L long, D double, S string, T date, B boolean, = text element, + repeated text element, *x list of
 * entity x, ^x one entity x.
 */
final class CatSchemas
{
    private static final String[] REPORT_HEAD = {"1 domain S", "2 startTime T", "3 endTime T", "4 domain +",
        "5 ip +"};

    private CatSchemas()
    {
    }

    private static String[] head(final String... more)
    {
        final String[] all = new String[REPORT_HEAD.length + more.length];
        System.arraycopy(REPORT_HEAD, 0, all, 0, REPORT_HEAD.length);
        System.arraycopy(more, 0, all, REPORT_HEAD.length, more.length);
        return all;
    }

    private static String[] tally(final String... more)
    {
        final String[] base = {"1 id S", "2 totalCount L", "3 failCount L", "4 failPercent D", "5 min D", "6 max D",
            "7 avg D", "8 sum D", "9 sum2 D", "10 std D", "11 successMessageUrl =", "12 failMessageUrl =", "13 tps D",
            "14 line95Value D", "15 line99Value D", "16 line999Value D", "17 line90Value D", "18 line50Value D",
            "19 line9999Value D", "20 longestMessageUrl ="};
        final String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    private static String[] minute(final String... more)
    {
        final String[] base = {"1 value I", "2 count I", "3 sum D", "4 avg D", "5 fails I", "6 min D", "7 max D",
            "8 line95Value D", "9 line99Value D", "10 line999Value D", "11 line90Value D", "12 line50Value D",
            "13 line9999Value D"};
        final String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    static NativeSchema transaction()
    {
        final String[] graph = {"1 duration I", "2 sum S", "3 avg S", "4 count S", "5 fails S"};
        return NativeSchema.builder("transaction-report")
            .entity("transaction-report", head("33 machine *machine"))
            .entity("machine", "1 ip S", "33 type *type")
            .dynamicEntity("type", tally("33 name *name", "34 graph2 *graph2", "35 graph-trend ^graph-trend",
                "36 range2 *range2"))
            .entity("name", tally("33 range *range", "34 duration *duration", "35 graph *graph",
                "36 graph-trend ^graph-trend", "37 statusCode *statusCode"))
            .entity("range", minute())
            .entity("range2", minute())
            .entity("duration", "1 value I", "2 count I")
            .entity("statusCode", "1 id S", "2 count L")
            .entity("graph", graph)
            .entity("graph2", graph)
            .entity("graph-trend", graph)
            .build();
    }

    static NativeSchema event()
    {
        final String[] counts = {"1 id S", "2 totalCount L", "3 failCount L", "4 failPercent D",
            "5 successMessageUrl =", "6 failMessageUrl =", "7 tps D"};
        final String[] name = new String[counts.length + 3];
        System.arraycopy(counts, 0, name, 0, counts.length);
        name[counts.length] = "33 range *range";
        name[counts.length + 1] = "34 graph-trend ^graph-trend";
        name[counts.length + 2] = "35 statusCode *statusCode";
        final String[] type = new String[counts.length + 2];
        System.arraycopy(counts, 0, type, 0, counts.length);
        type[counts.length] = "33 name *name";
        type[counts.length + 1] = "34 graph-trend ^graph-trend";
        return NativeSchema.builder("event-report")
            .entity("event-report", head("33 machine *machine"))
            .entity("machine", "1 ip S", "33 type *type")
            .entity("type", type)
            .entity("name", name)
            .entity("range", "1 value I", "2 count I", "3 fails I")
            .entity("graph-trend", "1 duration I", "2 count S", "3 fails S")
            .entity("statusCode", "1 id S", "2 count L")
            .build();
    }

    static NativeSchema problem()
    {
        return NativeSchema.builder("problem-report")
            .entity("problem-report", head("33 machine *machine"))
            .entity("machine", "1 ip S", "33 entry *entry", "34 entity *entity")
            .entity("entry", "1 type S", "2 status S", "33 duration *duration", "34 thread *thread")
            .entity("entity", "1 id S", "2 type S", "3 status S", "33 thread *thread", "34 duration *duration",
                "35 graph-trend ^graph-trend")
            .entity("thread", "1 group-name S", "2 name S", "3 id S", "33 segment *segment")
            .entity("segment", "1 id I", "2 count I", "3 message +")
            .entity("duration", "1 value I", "2 count I", "3 message +")
            .entity("graph-trend", "1 duration I", "2 fails S")
            .build();
    }

    static NativeSchema heartbeat()
    {
        return NativeSchema.builder("heartbeat-report")
            .entity("heartbeat-report", head("33 machine *machine"))
            .entity("machine", "1 ip S", "2 classpath S", "33 period *period")
            .dynamicEntity("period", "1 minute I", "2 thread-count I", "3 daemon-count I", "4 total-started-count I",
                "5 cat-thread-count I", "6 pigeon-thread-count I", "7 http-thread-count I", "8 new-gc-count L",
                "9 old-gc-count L", "10 memory-free L", "11 heap-usage L", "12 none-heap-usage L",
                "13 system-load-average D", "14 cat-message-produced L", "15 cat-message-overflow L",
                "16 cat-message-size D", "33 disk *disk", "34 extension *extension")
            .entity("disk", "1 path S", "2 total L", "3 free L", "4 usable L")
            .entity("extension", "1 id S", "33 detail *detail")
            .entity("detail", "1 id S", "2 value D")
            .build();
    }

    static NativeSchema state()
    {
        return NativeSchema.builder("state-report")
            .entity("state-report", "1 domain S", "2 startTime T", "3 endTime T", "33 machine *machine")
            .entity("machine", "1 ip S", "2 total L", "3 totalLoss L", "4 maxTps D", "5 avgTps D", "6 blockTotal L",
                "7 blockLoss L", "8 blockTime L", "9 pigeonTimeError L", "10 networkTimeError L", "11 dump L",
                "12 dumpLoss L", "13 size D", "14 delaySum D", "15 delayAvg D", "16 delayCount I",
                "33 processDomain *processDomain", "34 message *message")
            .entity("processDomain", "1 name S", "2 ip +", "3 total L", "4 totalLoss L", "5 size D", "6 avg D",
                "33 detail *detail")
            .entity("detail", "1 id L", "2 total L", "3 size D", "4 totalLoss L")
            .entity("message", "1 id L", "2 time T", "3 total L", "4 totalLoss L", "5 dump L", "6 dumpLoss L",
                "7 size D", "8 delaySum D", "9 delayCount I", "10 pigeonTimeError L", "11 networkTimeError L",
                "12 blockTotal L", "13 blockLoss L", "14 blockTime L")
            .build();
    }

    static NativeSchema top()
    {
        return NativeSchema.builder("top-report")
            .entity("top-report", "1 domain S", "2 startTime T", "3 endTime T", "33 domain *domain")
            .entity("domain", "1 name S", "33 segment *segment")
            .entity("segment", "1 id I", "2 error L", "3 url L", "4 url-duration D", "5 service L",
                "6 service-duration D", "7 sql L", "8 sql-duration D", "9 call L", "10 call-duration D", "11 cache L",
                "12 cache-duration D", "13 url-error L", "14 url-sum D", "15 service-error L", "16 service-sum D",
                "17 sql-error L", "18 sql-sum D", "19 call-error L", "20 call-sum D", "21 cache-error L",
                "22 cache-sum D", "33 error *error", "34 machine *machine")
            .entity("error", "1 id S", "2 count I")
            .entity("machine", "1 id S", "2 count I")
            .build();
    }

    static NativeSchema matrix()
    {
        return NativeSchema.builder("matrix-report")
            .entity("matrix-report", "1 domain S", "2 startTime T", "3 endTime T", "4 domain +", "33 matrix *matrix")
            .entity("matrix", "1 type S", "2 name S", "3 count I", "4 totalTime L", "5 url S", "33 ratio *ratio")
            .entity("ratio", "1 type S", "2 min I", "3 max I", "4 totalCount I", "5 totalTime L", "6 url S")
            .build();
    }

    static NativeSchema cross()
    {
        final String[] counts = {"1 id S", "2 totalCount L", "3 failCount I", "4 failPercent D", "5 avg D",
            "6 sum D", "7 tps D"};
        final String[] type = new String[counts.length + 1];
        System.arraycopy(counts, 0, type, 0, counts.length);
        type[counts.length] = "33 name *name";
        return NativeSchema.builder("cross-report")
            .entity("cross-report", head("33 local *local"))
            .entity("local", "1 id S", "33 remote *remote")
            .entity("remote", "1 id S", "2 role S", "3 app S", "4 ip S", "33 type ^type")
            .entity("type", type)
            .entity("name", counts)
            .build();
    }

    static NativeSchema dependency()
    {
        return NativeSchema.builder("dependency-report")
            .entity("dependency-report", "1 domain S", "2 startTime T", "3 endTime T", "4 domainName +",
                "33 segment *segment")
            .entity("segment", "1 id I", "2 exception-count I", "33 index *index", "34 dependency *dependency")
            .entity("index", "1 name S", "2 total-count L", "3 error-count L", "4 sum D", "5 avg D")
            .entity("dependency", "1 type S", "2 target S", "3 total-count L", "4 avg D", "5 error-count L",
                "6 key S", "7 sum D")
            .build();
    }

    static NativeSchema business()
    {
        return NativeSchema.builder("business-report")
            .entity("business-report", "1 domain S", "2 startTime T", "3 endTime T",
                "33 business-item *business-item")
            .entity("business-item", "1 id S", "2 type S", "33 segment *segment")
            .entity("segment", "1 id I", "2 count I", "3 sum D", "4 avg D")
            .build();
    }

    static NativeSchema storage()
    {
        return NativeSchema.builder("storage-report")
            .entity("storage-report", "1 id S", "2 name S", "3 type S", "4 startTime T", "5 endTime T", "6 id +",
                "7 ip +", "8 op +", "33 machine *machine")
            .entity("machine", "1 id S", "33 domain *domain")
            .entity("domain", "1 id S", "33 operation *operation", "34 sql *sql")
            .entity("operation", "1 id S", "2 count L", "3 avg D", "4 sum D", "5 error L", "6 long-count L",
                "33 segment *segment")
            .entity("segment", "1 id I", "2 count L", "3 avg D", "4 sum D", "5 error L", "6 long-count L")
            .entity("sql", "1 id S", "2 statement S", "3 count I")
            .build();
    }
}
