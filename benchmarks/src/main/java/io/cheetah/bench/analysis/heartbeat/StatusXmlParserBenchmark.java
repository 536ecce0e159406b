package io.cheetah.bench.analysis.heartbeat;

import io.cheetah.analysis.ReasonCounters;
import io.cheetah.analysis.heartbeat.HeartbeatLoss;
import io.cheetah.analysis.heartbeat.StatusXmlParser;
import io.cheetah.bench.BenchmarkDefaults;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Cost of parsing one heartbeat's status XML with the hardened parser: the 3.3 KB status a Java 3.1.0 client
 * sent in the captured vectors (7 extensions, 28 details), and a small application status (1 extension).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StatusXmlParserBenchmark extends BenchmarkDefaults
{
    private StatusXmlParser parser;
    private byte[] java31;
    private byte[] small;

    /**
     * Loads the captured status.
     *
     * @throws IOException if the resource is missing.
     */
    @Setup
    public void setUp() throws IOException
    {
        parser = new StatusXmlParser(new ReasonCounters<>(HeartbeatLoss.class), 256);
        try (InputStream in = StatusXmlParserBenchmark.class.getResourceAsStream("java-3.1.0-status.xml"))
        {
            java31 = in.readAllBytes();
        }
        small = ("<status><extension id=\"acceptance\"><description>acceptance</description>" +
            "<extensionDetail id=\"beat\" value=\"0\"/></extension></status>").getBytes(StandardCharsets.UTF_8);
        if (parser.parse(java31, 0, java31.length) == null)
        {
            throw new IllegalStateException("captured status did not parse");
        }
    }

    /**
     * @return the parsed status.
     */
    @Benchmark
    public StatusXmlParser.Status java31Status()
    {
        return parser.parse(java31, 0, java31.length);
    }

    /**
     * @return the parsed status.
     */
    @Benchmark
    public StatusXmlParser.Status smallApplicationStatus()
    {
        return parser.parse(small, 0, small.length);
    }
}
