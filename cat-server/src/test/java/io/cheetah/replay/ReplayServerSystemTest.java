package io.cheetah.replay;

import io.cheetah.analysis.Level;
import io.cheetah.fixtures.Vectors;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.TestServers;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replay tool against the real server in each pipeline mode: a recorded capture, timestamps moved to now,
 * arrives exactly once by the server's own /metrics.
 */
class ReplayServerSystemTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"cheetah", "classic", "drain"})
    void aRecordedCaptureIsReceivedAndProcessedExactlyOnce(final String mode) throws Exception
    {
        final byte[] capture = Vectors.bytes("cat-java-3.1.0/basic.frames");
        final int frames = Vectors.frames(capture).size();
        final Path file = dir.resolve("basic.frames");
        Files.write(file, capture);
        final CountingAnalyzerType all = new CountingAnalyzerType("all", 0, Level.HIGH, t -> true);
        final CountingAnalyzerType none = new CountingAnalyzerType("none", 1, Level.LOW, t -> false);
        try (CheetahServer server = CheetahServer.builder(TestServers.config("pipeline.mode=" + mode,
            "storage.dataDir=" + dir.resolve("data"))).analyzers(List.of(all, none)).start())
        {
            final ReplayOptions options = ReplayOptions.parse("--source", file.toString(), "--port",
                Integer.toString(server.tcpPort()), "--metrics", "http://127.0.0.1:" + server.httpPort() + "/metrics",
                "--connections", "2", "--quiet", "--drain-seconds", "10", "--report-dir", dir.resolve("r").toString());
            final ReplayResult result = new Replay(options, new PrintStream(new ByteArrayOutputStream())).run();

            assertThat(result.endOfSending().sentTrees()).isEqualTo(frames);
            assertThat(result.delta("cheetah_frames_received_total")).isEqualTo(frames);
            assertThat(result.delta("cheetah_frames_bad_total")).isZero();
            if ("drain".equals(mode))
            {
                assertThat(result.delta("cheetah_trees_received_total")).isZero();
                return;
            }
            assertThat(result.delta("cheetah_trees_received_total")).isEqualTo(frames);
            assertThat(result.delta("cheetah_trees_out_of_period_total")).isZero();
            assertThat(result.delta("cheetah_analyzer_processed_total", "analyzer", "all")).isEqualTo(frames);
            assertThat(result.delta("cheetah_analyzer_dropped_total")).isZero();
            // an analyzer that wants no tree runs on none: Cheetah's prefilter and, in classic mode, CAT's
            // eligibility check before the offer (ClassicPipeline since a690db0) both keep the trees from it
            assertThat(result.delta("cheetah_analyzer_processed_total", "analyzer", "none")).isZero();
            final ReplayReport report = new ReplayReport(result);
            assertThat(report.text()).contains("all:").contains("HIGH 0");
        }
    }
}
