package io.cheetah.catimport.mapping;

import io.cheetah.analysis.business.BusinessReport;
import io.cheetah.analysis.cross.CrossReport;
import io.cheetah.analysis.dependency.DependencyReport;
import io.cheetah.analysis.matrix.MatrixReport;
import io.cheetah.analysis.top.TopReport;
import io.cheetah.catimport.nativeformat.CatNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * CAT's list-shaped reports as Cheetah's: Matrix, Top, Business, Cross and Dependency, each element carried with its
 * figures, in each model's order. CAT's sums in ms are doubles and Cheetah's whole ms (Top, Dependency) or µs
 * (Cross), so they are rounded to those; Matrix keeps CAT's µs as they are. Called by {@link ReportMapping}.
 */
final class ListMappings
{
    private ListMappings()
    {
    }

    /**
     * @param tree      a decoded {@code matrix-report}.
     * @param domain    the domain of CAT's row.
     * @param hourStart epoch ms of the hour.
     * @return the report.
     */
    static MatrixReport matrix(final CatNode tree, final String domain, final long hourStart)
    {
        final Map<String, MatrixReport.Matrix> byName = new TreeMap<>();
        for (final CatNode m : tree.children("matrix"))
        {
            final List<MatrixReport.Ratio> ratios = new ArrayList<>();
            for (final CatNode r : m.children("ratio"))
            {
                ratios.add(new MatrixReport.Ratio(ReportMapping.nonNull(r.string("type")), r.longValue("min", 0),
                    r.longValue("max", 0), ReportMapping.sample(r.string("url")), r.longValue("totalCount", 0),
                    r.longValue("totalTime", 0)));
            }
            ratios.sort(Comparator.comparing(MatrixReport.Ratio::type));
            final String name = ReportMapping.nonNull(m.string("name"));
            byName.putIfAbsent(name, new MatrixReport.Matrix(name, ReportMapping.nonNull(m.string("type")),
                m.longValue("count", 0), m.longValue("totalTime", 0), ReportMapping.sample(m.string("url")), ratios));
        }
        return new MatrixReport(domain, hourStart, new ArrayList<>(byName.values()));
    }

    /**
     * @param tree      a decoded {@code top-report} (CAT's domain {@code cat}).
     * @param domain    the domain of CAT's row.
     * @param hourStart epoch ms of the hour.
     * @return the report.
     */
    static TopReport top(final CatNode tree, final String domain, final long hourStart)
    {
        final Map<String, TopReport.Domain> domains = new TreeMap<>();
        for (final CatNode d : tree.children("domain"))
        {
            final Map<Integer, TopReport.Segment> segments = new TreeMap<>();
            for (final CatNode s : d.children("segment"))
            {
                final long minute = s.longValue("id", -1);
                if (minute < 0 || minute > 59)
                {
                    continue;
                }
                final List<TopReport.Calls> calls = new ArrayList<>();
                for (int k = 0; k < TopReport.CallKind.COUNT; k++)
                {
                    final String a = TopReport.CallKind.of(k).attribute();
                    calls.add(new TopReport.Calls(s.longValue(a, 0), s.longValue(a + "-error", 0),
                        Math.round(s.doubleValue(a + "-sum", 0))));
                }
                segments.put((int)minute, new TopReport.Segment((int)minute, s.longValue("error", 0),
                    counts(s.children("error")), counts(s.children("machine")), calls));
            }
            final String name = ReportMapping.nonNull(d.string("name"));
            domains.putIfAbsent(name, new TopReport.Domain(name, new ArrayList<>(segments.values())));
        }
        return new TopReport(domain, hourStart, new ArrayList<>(domains.values()));
    }

    private static List<TopReport.Count> counts(final List<CatNode> nodes)
    {
        final Map<String, Long> byId = new TreeMap<>();
        for (final CatNode n : nodes)
        {
            byId.merge(ReportMapping.nonNull(n.string("id")), n.longValue("count", 0), Long::sum);
        }
        final List<TopReport.Count> out = new ArrayList<>();
        byId.forEach((id, count) -> out.add(new TopReport.Count(id, count)));
        return out;
    }

    /**
     * @param tree      a decoded {@code business-report}.
     * @param domain    the domain of CAT's row.
     * @param hourStart epoch ms of the hour.
     * @return the report.
     */
    static BusinessReport business(final CatNode tree, final String domain, final long hourStart)
    {
        final Map<String, BusinessReport.Item> items = new TreeMap<>();
        for (final CatNode item : tree.children("business-item"))
        {
            final Map<Integer, BusinessReport.Segment> segments = new TreeMap<>();
            for (final CatNode s : item.children("segment"))
            {
                final long minute = s.longValue("id", -1);
                if (minute >= 0 && minute < 60)
                {
                    final double sum = s.doubleValue("sum", 0);
                    segments.put((int)minute, new BusinessReport.Segment((int)minute, s.longValue("count", 0),
                        Double.isFinite(sum) ? sum : 0));
                }
            }
            final String id = ReportMapping.nonNull(item.string("id"));
            items.putIfAbsent(id, new BusinessReport.Item(id, ReportMapping.nonNull(item.string("type")),
                new ArrayList<>(segments.values())));
        }
        return new BusinessReport(domain, hourStart, new ArrayList<>(items.values()));
    }

    /**
     * @param tree      a decoded {@code cross-report}.
     * @param domain    the domain of CAT's row.
     * @param hourStart epoch ms of the hour.
     * @return the report.
     */
    static CrossReport cross(final CatNode tree, final String domain, final long hourStart)
    {
        final Map<String, List<CrossReport.Remote>> locals = new TreeMap<>();
        for (final CatNode local : tree.children("local"))
        {
            final List<CrossReport.Remote> remotes = locals.computeIfAbsent(
                ReportMapping.nonNull(local.string("id")), id -> new ArrayList<>());
            for (final CatNode remote : local.children("remote"))
            {
                final List<CatNode> types = remote.children("type");
                final CatNode type = types.isEmpty() ? null : types.get(0);
                CrossReport.Type mapped = null;
                if (type != null)
                {
                    final List<CrossReport.Name> names = new ArrayList<>();
                    for (final CatNode name : type.children("name"))
                    {
                        names.add(new CrossReport.Name(ReportMapping.nonNull(name.string("id")),
                            name.longValue("totalCount", 0), name.longValue("failCount", 0), micros(name)));
                    }
                    names.sort(Comparator.comparing(CrossReport.Name::id));
                    mapped = new CrossReport.Type(ReportMapping.nonNull(type.string("id")),
                        type.longValue("totalCount", 0), type.longValue("failCount", 0), micros(type), names);
                }
                remotes.add(new CrossReport.Remote(ReportMapping.nonNull(remote.string("id")),
                    ReportMapping.nonNull(remote.string("role")), ReportMapping.nonNull(remote.string("app")),
                    ReportMapping.nonNull(remote.string("ip")), mapped));
            }
        }
        final List<CrossReport.Local> out = new ArrayList<>();
        locals.forEach((id, remotes) ->
        {
            remotes.sort(Comparator.comparing(CrossReport.Remote::id));
            out.add(new CrossReport.Local(id, remotes));
        });
        return new CrossReport(domain, hourStart, new ArrayList<>(new TreeSet<>(tree.texts("ip"))), out);
    }

    private static long micros(final CatNode node)
    {
        final double sum = node.doubleValue("sum", 0);
        return Double.isFinite(sum) ? Math.round(sum * 1000) : 0;
    }

    /**
     * @param tree      a decoded {@code dependency-report}.
     * @param domain    the domain of CAT's row.
     * @param hourStart epoch ms of the hour.
     * @return the report.
     */
    static DependencyReport dependency(final CatNode tree, final String domain, final long hourStart)
    {
        final Map<Integer, DependencyReport.Segment> segments = new TreeMap<>();
        for (final CatNode s : tree.children("segment"))
        {
            final long minute = s.longValue("id", -1);
            if (minute < 0 || minute > 59)
            {
                continue;
            }
            final List<DependencyReport.Index> indexes = new ArrayList<>();
            for (final CatNode i : s.children("index"))
            {
                indexes.add(new DependencyReport.Index(ReportMapping.nonNull(i.string("name")),
                    i.longValue("total-count", 0), i.longValue("error-count", 0), millis(i)));
            }
            indexes.sort(Comparator.comparing(DependencyReport.Index::name));
            final List<DependencyReport.Dependency> dependencies = new ArrayList<>();
            for (final CatNode d : s.children("dependency"))
            {
                dependencies.add(new DependencyReport.Dependency(ReportMapping.nonNull(d.string("type")),
                    ReportMapping.nonNull(d.string("target")), d.longValue("total-count", 0),
                    d.longValue("error-count", 0), millis(d)));
            }
            dependencies.sort(Comparator.comparing(DependencyReport.Dependency::key));
            segments.put((int)minute, new DependencyReport.Segment((int)minute, indexes, dependencies));
        }
        return new DependencyReport(domain, hourStart, new ArrayList<>(segments.values()));
    }

    private static long millis(final CatNode node)
    {
        final double sum = node.doubleValue("sum", 0);
        return Double.isFinite(sum) ? Math.round(sum) : 0;
    }
}
