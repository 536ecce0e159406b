package io.cheetah.server.http.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.cheetah.analysis.dependency.DependencyReport;

import java.io.IOException;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The dependency graph of every domain for one minute (or a whole hour) of their Dependency reports, for the
 * topology page: {@link JsonApiHandler} answers {@code /api/v1/topology} with it. Nodes are domains (their requests:
 * {@code URL}, {@code Service} and {@code PigeonService} indexes; their errors; their exceptions) and the databases
 * and caches they use; edges are each domain's {@code PigeonCall}, {@code Database} and {@code Cache} dependencies
 * (a callee's {@code PigeonService} entries mirror its callers' calls and are not drawn twice).
 */
final class Topology
{
    /** Most domains drawn; beyond, the graph says how many were left out. */
    static final int MAX_DOMAINS = 1_000;
    /** The indexes that count a domain's requests. */
    private static final Set<String> REQUESTS = Set.of("URL", "Service", "PigeonService");

    /** One edge's identity, in drawing order. */
    private record Edge(String from, String to, String type) implements Comparable<Edge>
    {
        private static final Comparator<Edge> ORDER = Comparator.comparing(Edge::from).thenComparing(Edge::to)
            .thenComparing(Edge::type);

        @Override
        public int compareTo(final Edge other)
        {
            return ORDER.compare(this, other);
        }
    }

    private final Map<String, long[]> nodes = new TreeMap<>();
    private final Map<String, String> kinds = new TreeMap<>();
    private final Map<Edge, long[]> edges = new TreeMap<>();
    private int leftOut;

    /**
     * Adds one domain's report.
     *
     * @param report the domain's Dependency report of the hour.
     * @param minute 0–59, or -1 for every minute.
     */
    void add(final DependencyReport report, final int minute)
    {
        if (nodes.size() >= MAX_DOMAINS && !nodes.containsKey(report.domain()))
        {
            leftOut++;
            return;
        }
        for (final DependencyReport.Segment s : report.segments())
        {
            if (minute >= 0 && s.minute() != minute)
            {
                continue;
            }
            final long[] node = node(report.domain(), "domain");
            for (final DependencyReport.Index i : s.indexes())
            {
                if (REQUESTS.contains(i.name()))
                {
                    node[0] += i.totalCount();
                    node[1] += i.errorCount();
                    node[2] += i.sumMillis();
                }
                else if ("Exception".equals(i.name()))
                {
                    node[3] += i.totalCount();
                }
            }
            for (final DependencyReport.Dependency d : s.dependencies())
            {
                final String to;
                switch (d.type())
                {
                    case "PigeonCall":
                        to = d.target();
                        node(to, "domain");
                        break;
                    case "Database":
                        to = "db:" + d.target();
                        node(to, "database");
                        break;
                    case "Cache":
                        to = "cache:" + d.target();
                        node(to, "cache");
                        break;
                    default:
                        continue;
                }
                final long[] e = edges.computeIfAbsent(new Edge(report.domain(), to, d.type()), k -> new long[3]);
                e[0] += d.totalCount();
                e[1] += d.errorCount();
                e[2] += d.sumMillis();
                if (!"domain".equals(kinds.get(to)))
                {
                    final long[] target = nodes.get(to);
                    target[0] += d.totalCount();
                    target[1] += d.errorCount();
                    target[2] += d.sumMillis();
                }
            }
        }
    }

    private long[] node(final String id, final String kind)
    {
        kinds.putIfAbsent(id, kind);
        return nodes.computeIfAbsent(id, k -> new long[4]);
    }

    /**
     * Writes {@code "minute", "leftOut", "nodes":[{id, kind, total, errors, avg, exceptions}], "edges":[{from, to,
     * type, total, errors, avg}]} into the open object.
     *
     * @param json   the generator, inside an object.
     * @param minute the minute asked, or -1.
     * @throws IOException from the generator.
     */
    void write(final JsonGenerator json, final int minute) throws IOException
    {
        json.writeNumberField("minute", minute);
        json.writeNumberField("leftOut", leftOut);
        json.writeArrayFieldStart("nodes");
        for (final Map.Entry<String, long[]> n : nodes.entrySet())
        {
            final long[] f = n.getValue();
            json.writeStartObject();
            json.writeStringField("id", n.getKey());
            json.writeStringField("kind", kinds.get(n.getKey()));
            json.writeNumberField("total", f[0]);
            json.writeNumberField("errors", f[1]);
            json.writeNumberField("avg", f[0] == 0 ? 0 : (double)f[2] / f[0]);
            json.writeNumberField("exceptions", f[3]);
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeArrayFieldStart("edges");
        for (final Map.Entry<Edge, long[]> e : edges.entrySet())
        {
            final Edge key = e.getKey();
            final long[] f = e.getValue();
            json.writeStartObject();
            json.writeStringField("from", key.from());
            json.writeStringField("to", key.to());
            json.writeStringField("type", key.type());
            json.writeNumberField("total", f[0]);
            json.writeNumberField("errors", f[1]);
            json.writeNumberField("avg", f[0] == 0 ? 0 : (double)f[2] / f[0]);
            json.writeEndObject();
        }
        json.writeEndArray();
    }
}
