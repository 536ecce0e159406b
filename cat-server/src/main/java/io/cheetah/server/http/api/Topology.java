package io.cheetah.server.http.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.cheetah.analysis.dependency.DependencyReport;

import java.io.IOException;
import java.util.List;
import java.util.Map;
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

    private final Map<String, long[]> nodes = new TreeMap<>();
    private final Map<String, String> kinds = new TreeMap<>();
    private final Map<String, long[]> edges = new TreeMap<>();
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
                if (List.of("URL", "Service", "PigeonService").contains(i.name()))
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
                final long[] e = edges.computeIfAbsent(report.domain() + '\u0000' + to + '\u0000' + d.type(),
                    k -> new long[3]);
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
        for (final Map.Entry<String, long[]> e : edges.entrySet())
        {
            final String[] key = e.getKey().split("\u0000", -1);
            final long[] f = e.getValue();
            json.writeStartObject();
            json.writeStringField("from", key[0]);
            json.writeStringField("to", key[1]);
            json.writeStringField("type", key[2]);
            json.writeNumberField("total", f[0]);
            json.writeNumberField("errors", f[1]);
            json.writeNumberField("avg", f[0] == 0 ? 0 : (double)f[2] / f[0]);
            json.writeEndObject();
        }
        json.writeEndArray();
    }
}
