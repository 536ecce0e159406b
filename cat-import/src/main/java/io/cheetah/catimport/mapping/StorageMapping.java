package io.cheetah.catimport.mapping;

import io.cheetah.analysis.storage.StorageReport;
import io.cheetah.catimport.nativeformat.CatNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * CAT's Storage report (calls per store, machine, client domain and operation, and the SQL statements) as Cheetah's
 * {@link StorageReport}, the report's domain being CAT's row's ({@code <store>-<type>}, as both name it). An
 * operation's figures are its minutes' (Cheetah adds them up when asked); CAT's sums in ms are rounded to whole ms.
 * Read off CAT's model files only: the test vector holds no stored Storage report, so unlike the other kinds this
 * mapping is checked on hand-made trees only. Called by {@link ReportMapping}.
 */
final class StorageMapping
{
    private StorageMapping()
    {
    }

    /**
     * @param tree      a decoded {@code storage-report}.
     * @param domain    the domain of CAT's row.
     * @param hourStart epoch ms of the hour.
     * @return the report.
     */
    static StorageReport map(final CatNode tree, final String domain, final long hourStart)
    {
        final Map<String, StorageReport.Machine> machines = new TreeMap<>();
        for (final CatNode machine : tree.children("machine"))
        {
            final List<StorageReport.Domain> domains = new ArrayList<>();
            for (final CatNode d : machine.children("domain"))
            {
                final Map<String, StorageReport.Operation> operations = new TreeMap<>();
                for (final CatNode o : d.children("operation"))
                {
                    final Map<Integer, StorageReport.Segment> segments = new TreeMap<>();
                    for (final CatNode s : o.children("segment"))
                    {
                        final long minute = s.longValue("id", -1);
                        if (minute >= 0 && minute < 60)
                        {
                            final double sum = s.doubleValue("sum", 0);
                            segments.put((int)minute, new StorageReport.Segment((int)minute,
                                Math.max(0, s.longValue("count", 0)), Double.isFinite(sum) ? Math.round(sum) : 0,
                                Math.max(0, s.longValue("error", 0)), Math.max(0, s.longValue("long-count", 0))));
                        }
                    }
                    final String name = ReportMapping.nonNull(o.string("id"));
                    operations.putIfAbsent(name, new StorageReport.Operation(name, new ArrayList<>(segments.values())));
                }
                final List<StorageReport.Statement> statements = new ArrayList<>();
                for (final CatNode sql : d.children("sql"))
                {
                    statements.add(new StorageReport.Statement(ReportMapping.nonNull(sql.string("id")),
                        ReportMapping.nonNull(sql.string("statement")), Math.max(0, sql.longValue("count", 0))));
                }
                statements.sort(Comparator.comparing(StorageReport.Statement::id));
                domains.add(new StorageReport.Domain(ReportMapping.nonNull(d.string("id")),
                    new ArrayList<>(operations.values()), statements));
            }
            domains.sort(Comparator.comparing(StorageReport.Domain::name));
            final String ip = ReportMapping.nonNull(machine.string("id"));
            machines.putIfAbsent(ip, new StorageReport.Machine(ip, domains));
        }
        return new StorageReport(domain, hourStart, new ArrayList<>(new TreeSet<>(tree.texts("id"))),
            new ArrayList<>(machines.values()));
    }
}
