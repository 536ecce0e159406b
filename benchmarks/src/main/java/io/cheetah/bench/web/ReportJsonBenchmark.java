package io.cheetah.bench.web;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.report.XmlWriter;
import io.cheetah.server.http.api.XmlToJson;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.io.IOException;
import java.io.StringWriter;

/**
 * What the dashboard's JSON API costs on a big domain (200 types × 1,000 names): converting the CAT XML of the
 * type table (200 types) and of one type's name table (1,000 names) into the dashboard's JSON, as
 * {@link io.cheetah.server.http.api.JsonApiHandler} does per request. Inputs are CAT-shaped XML with every
 * attribute the transaction report writes.
 */
@State(Scope.Thread)
public class ReportJsonBenchmark extends BenchmarkDefaults
{
    private final XmlToJson xmlToJson = new XmlToJson();
    private final JsonFactory factory = new JsonFactory();
    private String typeLevel;
    private String nameLevel;

    /**
     * Builds the two documents.
     *
     * @throws IOException never (in-memory).
     */
    @Setup
    public void setUp() throws IOException
    {
        typeLevel = document(200, 0);
        nameLevel = document(1, 1000);
    }

    private static String document(final int types, final int names) throws IOException
    {
        final StringBuilder out = new StringBuilder(1 << 20);
        final XmlWriter xml = new XmlWriter(out);
        xml.declaration().start("transaction-report").attribute("domain", "big")
            .attribute("startTime", "2024-05-17 13:00:00").attribute("endTime", "2024-05-17 13:59:59");
        xml.element("domain", "big");
        for (int i = 0; i < 20; i++)
        {
            xml.element("ip", "10.0.1." + i);
        }
        xml.start("machine").attribute("ip", "All");
        for (int t = 0; t < types; t++)
        {
            xml.start("type");
            stats(xml, "Type." + t, t);
            for (int n = 0; n < names; n++)
            {
                xml.start("name");
                stats(xml, "/service/endpoint/" + n, n);
                xml.end("name");
            }
            xml.end("type");
        }
        xml.end("machine").end("transaction-report");
        return out.toString();
    }

    private static void stats(final XmlWriter xml, final String id, final int i) throws IOException
    {
        xml.attribute("id", id).attribute("totalCount", 1000L + i).attribute("failCount", i % 7)
            .attribute("failPercent", "0.70").attribute("min", "1.00").attribute("max", "1234.00")
            .attribute("avg", "12.3").attribute("sum", "12345.6").attribute("sum2", "987654.3").attribute("std", "4.5")
            .attribute("tps", "0.28").attribute("line95Value", "40.00").attribute("line99Value", "90.00")
            .attribute("line999Value", "400.00").attribute("line50Value", "10.00").attribute("line90Value", "30.00")
            .attribute("line9999Value", "1200.00");
        xml.element("successMessageUrl", "big-0a000101-474989-" + i);
    }

    /**
     * @return the JSON of the 200-type table.
     * @throws IOException never.
     */
    @Benchmark
    public String typeTable200() throws IOException
    {
        return convert(typeLevel);
    }

    /**
     * @return the JSON of a 1,000-name table.
     * @throws IOException never.
     */
    @Benchmark
    public String nameTable1000() throws IOException
    {
        return convert(nameLevel);
    }

    private String convert(final String xml) throws IOException
    {
        final StringWriter out = new StringWriter(xml.length());
        try (JsonGenerator json = factory.createGenerator(out))
        {
            xmlToJson.write(xml, json);
        }
        return out.toString();
    }
}
