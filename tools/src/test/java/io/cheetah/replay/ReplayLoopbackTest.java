package io.cheetah.replay;

import io.cheetah.fixtures.Vectors;
import io.cheetah.message.MessageId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayLoopbackTest
{
    @TempDir
    Path dir;

    @Test
    void aRecordedCaptureIsDeliveredExactlyOnceWithTimestampsMovedToNow() throws Exception
    {
        final Path file = dir.resolve("basic.frames");
        Files.write(file, Vectors.bytes("cat-go/basic.frames"));
        final int frames = Vectors.frames(Vectors.bytes("cat-go/basic.frames")).size();
        try (LoopbackListener server = new LoopbackListener())
        {
            final long before = System.currentTimeMillis();
            final ReplayResult result = run("--source", file.toString(), "--port", Integer.toString(server.port()),
                "--connections", "3", "--metrics", "none", "--loops", "1", "--quiet", "--drain-seconds", "0");
            server.awaitConnectionsClosed(5_000);

            final List<LoopbackListener.Received> got = server.trees();
            assertThat(server.badFrames()).isZero();
            assertThat(result.endOfSending().sentTrees()).isEqualTo(frames);
            assertThat(got).hasSize(frames);
            final Map<String, Long> perId = got.stream()
                .collect(Collectors.groupingBy(LoopbackListener.Received::messageId, Collectors.counting()));
            assertThat(perId.values()).allMatch(n -> n == 1);
            final long hour = Math.floorDiv(got.get(0).rootTimestamp(), MessageId.HOUR_MILLIS);
            final Set<Long> seqs = new HashSet<>();
            for (final LoopbackListener.Received r : got)
            {
                assertThat(r.rootTimestamp()).isBetween(before - 60_000, System.currentTimeMillis() + 60_000);
                final MessageId id = MessageId.parse(r.messageId());
                assertThat(id.domain()).isEqualTo("cat-go-sender");
                assertThat(id.hour()).isBetween(hour - 1, hour + 1);
                seqs.add(id.index());
            }
            assertThat(seqs).hasSize(37).contains(1L, 37L);
        }
    }

    @Test
    void aGeneratedMixWithATreeQuotaSendsExactlyThatManyTrees() throws Exception
    {
        try (LoopbackListener server = new LoopbackListener())
        {
            final ReplayResult result = run("--source", "std-mix", "--pool", "500", "--trees", "2000",
                "--connections", "2", "--rate", "20000", "--port", Integer.toString(server.port()),
                "--metrics", "none", "--quiet", "--drain-seconds", "0");
            server.awaitConnectionsClosed(5_000);
            assertThat(result.endOfSending().sentTrees()).isEqualTo(2000);
            assertThat(server.trees()).hasSize(2000);
            assertThat(server.badFrames()).isZero();
            // The pool of 500 is cycled four times: each pooled tree arrives four times.
            assertThat(server.trees().stream().collect(Collectors.groupingBy(LoopbackListener.Received::messageId,
                Collectors.counting())).values()).allMatch(n -> n == 4);
            final Map<String, Long> domains = server.trees().stream()
                .collect(Collectors.groupingBy(LoopbackListener.Received::domain, Collectors.counting()));
            assertThat(domains.keySet()).allMatch(d -> d.startsWith("app-"));

            final ReplayReport report = new ReplayReport(result);
            report.write(dir.resolve("report"));
            assertThat(Files.readString(dir.resolve("report/report.html"))).contains("<svg").contains("Throughput");
            assertThat(report.summary()).containsEntry("sent_trees", "2000");
        }
    }

    @Test
    void eachMachineBeatsOnceAMinuteHoweverFastThePoolCycles() throws Exception
    {
        try (LoopbackListener server = new LoopbackListener())
        {
            // 1.5 s at 4,000 trees/s cycles a 1,000-tree pool six times; 1,000 machines beat at 1,000 a minute
            run("--source", "std-mix", "--pool", "1000", "--duration", "1.5", "--connections", "2", "--rate", "4000",
                "--port", Integer.toString(server.port()), "--metrics", "none", "--quiet", "--drain-seconds", "0");
            server.awaitConnectionsClosed(5_000);
            final List<LoopbackListener.Received> beats = server.trees().stream()
                .filter(LoopbackListener.Received::heartbeat).toList();
            assertThat(beats.size()).isBetween(10, 60);
            // a minute has not passed: no machine has beaten twice
            assertThat(beats.stream().map(b -> b.domain() + "/" + b.ip()).distinct().count()).isEqualTo(beats.size());
            assertThat(server.trees().size() - beats.size()).isGreaterThan(3_000);
        }
    }

    @Test
    void generatedTreesFollowTheWallClockWhenRestamped() throws Exception
    {
        assertThat(latestStamp("0.4") - latestStamp("0")).as("restamped pools carry later timestamps")
            .isGreaterThan(600);
    }

    /** Sends std-mix for 1.6 s with the given restamp period; returns the latest root timestamp received. */
    private static long latestStamp(final String restampSeconds) throws Exception
    {
        try (LoopbackListener server = new LoopbackListener())
        {
            final long start = System.currentTimeMillis();
            run("--source", "std-mix", "--pool", "500", "--duration", "1.6", "--connections", "1", "--rate", "2000",
                "--heartbeats", "false", "--restamp-seconds", restampSeconds, "--port", Integer.toString(server.port()),
                "--metrics", "none", "--quiet", "--drain-seconds", "0");
            server.awaitConnectionsClosed(5_000);
            assertThat(server.trees()).hasSizeGreaterThan(2_000);
            return server.trees().stream().mapToLong(LoopbackListener.Received::rootTimestamp).max().orElseThrow() -
                start;
        }
    }

    private static ReplayResult run(final String... args) throws Exception
    {
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        return new Replay(ReplayOptions.parse(args), new PrintStream(progress, true)).run();
    }
}
