package io.cheetah.server.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.analysis.Level;
import io.cheetah.codec.FrameError;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sends every malformed stream of the shared vectors to a running server over a real socket, next to a healthy
 * connection, and checks counts, reasons and connection handling against malformed/expected.json.
 */
@Tag("fault")
class MalformedVectorsSystemTest
{
    /**
     * What each vector's bad frames must be counted as. truncated-payload stops inside a string, so the decoder
     * calls it string_overrun; length-exceeds-data swallows the next frame's start (unknown record) and then reads a
     * length from inside a payload (over the cap: the connection is closed).
     */
    private static final Map<String, Map<FrameError, Long>> REASONS = Map.ofEntries(
        Map.entry("truncated-payload.frames", Map.of(FrameError.STRING_OVERRUN, 1L)),
        Map.entry("truncated-stream.frames", Map.of(FrameError.INCOMPLETE_AT_EOF, 1L)),
        Map.entry("truncated-prefix.frames", Map.of(FrameError.INCOMPLETE_AT_EOF, 1L)),
        Map.entry("length-exceeds-data.frames", Map.of(FrameError.UNKNOWN_RECORD, 1L, FrameError.FRAME_TOO_LARGE, 1L)),
        Map.entry("zero-length.frames", Map.of(FrameError.NON_POSITIVE_LENGTH, 1L)),
        Map.entry("negative-length.frames", Map.of(FrameError.NON_POSITIVE_LENGTH, 1L)),
        Map.entry("negative-min-length.frames", Map.of(FrameError.NON_POSITIVE_LENGTH, 1L)),
        Map.entry("huge-length.frames", Map.of(FrameError.FRAME_TOO_LARGE, 1L)),
        Map.entry("unknown-codec.frames", Map.of(FrameError.UNKNOWN_CODEC, 1L)),
        Map.entry("nt1-varint-overlong.frames", Map.of(FrameError.VARINT_TOO_LONG, 1L)),
        Map.entry("nt1-string-overrun.frames", Map.of(FrameError.STRING_OVERRUN, 1L)),
        Map.entry("nt1-unbalanced-end.frames", Map.of(FrameError.END_WITHOUT_BEGIN, 1L)),
        Map.entry("nt1-unclosed-begin.frames", Map.of(FrameError.UNCLOSED_TRANSACTION, 1L)),
        Map.entry("nt1-deep-nesting.frames", Map.of(FrameError.TOO_DEEP, 1L)),
        Map.entry("nt1-invalid-utf8.frames", Map.of()),
        Map.entry("baseline.frames", Map.of()));

    private static CheetahServer server;
    private static CountingAnalyzerType counting;

    @BeforeAll
    static void start() throws Exception
    {
        final FlatTree first = new FlatTree();
        final byte[] frame = Vectors.frames(Vectors.bytes("malformed/baseline.frames")).get(0);
        new TreeDecoder().decodeFrame(frame, 0, frame.length, first);
        counting = new CountingAnalyzerType("count", 2, Level.HIGH, t -> true);
        server = CheetahServer.builder(TestServers.config("tcp.maxFrameBytes=1048576"))
            .analyzers(List.of(counting))
            .clock(new ManualClock(first.rootTimestamp()))
            .autoTick(false)
            .start();
    }

    @AfterAll
    static void stop()
    {
        server.close();
    }

    @Test
    void everyMalformedVectorIsCountedWithItsReasonAndOtherConnectionsAreUnaffected() throws Exception
    {
        final JsonNode expected = new ObjectMapper().readTree(Vectors.text("malformed/expected.json"));
        assertThat(expected.size()).isEqualTo(16);
        for (final JsonNode e : expected)
        {
            check(e);
        }
    }

    private void check(final JsonNode e) throws Exception
    {
        final String file = e.get("file").asText();
        final String connection = e.get("connection").asText();
        final long treesBefore = server.counters().treesReceived.sum();
        final long processedBefore = processed();
        final Map<FrameError, Long> badBefore = bad();
        final byte[] baseline = Vectors.bytes("malformed/baseline.frames");

        try (Socket healthy = new Socket("127.0.0.1", server.tcpPort());
             Socket bad = new Socket("127.0.0.1", server.tcpPort()))
        {
            bad.setSoTimeout(300);
            final OutputStream healthyOut = healthy.getOutputStream();
            healthyOut.write(baseline, 0, baseline.length / 2);
            healthyOut.flush();
            bad.getOutputStream().write(Vectors.bytes("malformed/" + file));
            bad.getOutputStream().flush();
            healthyOut.write(baseline, baseline.length / 2, baseline.length - baseline.length / 2);
            healthyOut.flush();
            if (connection.equals("eof") || connection.equals("close-or-eof"))
            {
                bad.shutdownOutput();
            }
            final boolean closedByServer = closed(bad.getInputStream());
            if (connection.equals("close"))
            {
                assertThat(closedByServer).as(file + ": connection closed by the server").isTrue();
            }
            else if (connection.equals("keep"))
            {
                assertThat(closedByServer).as(file + ": connection kept").isFalse();
            }

            final int minTrees = e.has("countedTreesAtLeast") ? e.get("countedTreesAtLeast").asInt() :
                e.get("countedTrees").asInt();
            final int minBad = e.has("badFramesAtLeast") ? e.get("badFramesAtLeast").asInt() :
                Math.min(e.get("badFrames").asInt(), e.has("badFramesAtMost") ? e.get("badFramesAtMost").asInt() : 99);
            await(() -> server.counters().treesReceived.sum() - treesBefore >= 3 + minTrees &&
                badTotal(badBefore) >= minBad, file);
            Thread.sleep(100);
            assertThat(server.drain(5000)).isTrue();

            final long trees = server.counters().treesReceived.sum() - treesBefore - 3;
            final long badFrames = badTotal(badBefore);
            if (e.has("countedTreesAtLeast"))
            {
                assertThat(trees).as(file + " trees").isGreaterThanOrEqualTo(minTrees);
            }
            else if (e.has("countedTreesAtMost"))
            {
                assertThat(trees).as(file + " trees").isBetween((long)e.get("countedTrees").asInt(),
                    (long)e.get("countedTreesAtMost").asInt());
            }
            else
            {
                assertThat(trees).as(file + " trees").isEqualTo(e.get("countedTrees").asInt());
            }
            if (e.has("badFramesAtLeast"))
            {
                assertThat(badFrames).as(file + " bad frames").isGreaterThanOrEqualTo(minBad);
            }
            else if (e.has("badFramesAtMost"))
            {
                assertThat(badFrames).as(file + " bad frames").isLessThanOrEqualTo(e.get("badFramesAtMost").asInt());
            }
            else
            {
                assertThat(badFrames).as(file + " bad frames").isEqualTo(e.get("badFrames").asInt());
            }
            final Map<FrameError, Long> after = bad();
            final Map<FrameError, Long> delta = new EnumMap<>(FrameError.class);
            after.forEach((k, v) ->
            {
                if (v - badBefore.get(k) != 0)
                {
                    delta.put(k, v - badBefore.get(k));
                }
            });
            assertThat(delta).as(file + " bad frames by reason").isEqualTo(REASONS.get(file));
            // every decoded tree reached the analyzer: the healthy connection's three and the vector's good ones
            assertThat(processed() - processedBefore).as(file + " processed").isEqualTo(trees + 3);
        }
    }

    private static boolean closed(final InputStream in) throws Exception
    {
        final long deadline = System.currentTimeMillis() + 2000;
        while (System.currentTimeMillis() < deadline)
        {
            try
            {
                return in.read() < 0;
            }
            catch (final SocketTimeoutException e)
            {
                return false;
            }
            catch (final java.net.SocketException e)
            {
                return true;
            }
        }
        return false;
    }

    private static long processed()
    {
        return server.analyzers().stream().filter(s -> s.name().equals("count")).findFirst().orElseThrow()
            .counters().processed.sum();
    }

    private static Map<FrameError, Long> bad()
    {
        final Map<FrameError, Long> m = new EnumMap<>(FrameError.class);
        for (final FrameError e : FrameError.values())
        {
            m.put(e, server.counters().badFrames(e).sum());
        }
        return m;
    }

    private static long badTotal(final Map<FrameError, Long> before)
    {
        long sum = 0;
        for (final FrameError e : FrameError.values())
        {
            sum += server.counters().badFrames(e).sum() - before.get(e);
        }
        return sum;
    }

    private static void await(final BooleanSupplier condition, final String what) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + 5000;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(10);
        }
    }
}
