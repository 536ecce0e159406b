package io.cheetah.codec.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.StreamDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.TreeDecoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TreeJsonWriterTest
{
    private final ObjectMapper mapper = new ObjectMapper();

    static List<String> captures()
    {
        return Vectors.CAPTURES;
    }

    @ParameterizedTest
    @MethodSource("captures")
    void everyCaptureDecodesToExactlyItsJsonLines(final String capture) throws Exception
    {
        final String[] expected = Vectors.text(capture + ".jsonl").split("\n");
        final List<String> actual = new ArrayList<>();
        final TreeJsonWriter writer = new TreeJsonWriter();
        final StreamDecoder stream = new StreamDecoder(new StreamDecoder.Listener()
        {
            @Override
            public void onTree(final FlatTree tree, final long streamOffset)
            {
                actual.add(writer.toJson(tree));
            }

            @Override
            public void onError(final MalformedFrameException error, final long streamOffset)
            {
                actual.add("error " + error.getMessage() + " at stream byte " + streamOffset);
            }
        });
        final byte[] bytes = Vectors.bytes(capture + ".frames");
        // feed in odd-sized chunks so frames straddle feeds
        for (int at = 0; at < bytes.length; at += 77)
        {
            stream.feed(bytes, at, Math.min(77, bytes.length - at));
        }
        stream.finish();

        assertThat(stream.badFrames()).isZero();
        assertThat(actual).hasSize(expected.length);
        for (int k = 0; k < expected.length; k++)
        {
            final JsonNode want = mapper.readTree(expected[k]);
            final JsonNode got = mapper.readTree(actual.get(k));
            assertThat(got).as(capture + " frame " + k + "\n got " + actual.get(k) + "\nwant " + expected[k])
                .isEqualTo(want);
        }
    }

    @Test
    void theToolPrintsOneObjectPerFrameAndErrorsWithStreamOffsets() throws Exception
    {
        final byte[] stream = Vectors.bytes("malformed/unknown-codec.frames");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final long bad = CatDecode.decode(new ByteArrayInputStream(stream), out, java.time.ZoneOffset.ofHours(8),
            1 << 20);
        final String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");

        assertThat(bad).isEqualTo(1);
        assertThat(lines).hasSize(3);
        final JsonNode error = mapper.readTree(lines[1]);
        final int firstFrame = Vectors.frames(stream).get(0).length;
        assertThat(error.get("error").asText()).isEqualTo("unknown_codec");
        assertThat(error.get("offset").asLong()).isEqualTo(firstFrame + 4);
        assertThat(error.get("detail").asText()).contains("XX9");
        assertThat(mapper.readTree(lines[2]).at("/message/name").asText()).startsWith("/good/");
    }

    @Test
    void writesTreesDeeperThanJacksonsDefaultNestingLimit() throws Exception
    {
        final TransactionMessage root = new TransactionMessage("Deep", "level", "0", "", 1, 1);
        TransactionMessage t = root;
        for (int k = 0; k < 999; k++)
        {
            final TransactionMessage child = new TransactionMessage("Deep", "level", "0", "", 1, 1);
            t.addChild(child);
            t = child;
        }
        final byte[] frame = Nt1Encoder.encode(new MessageTree().domain("d").root(root));
        final FlatTree tree = new FlatTree();
        new TreeDecoder().decodeFrame(frame, 0, frame.length, tree);

        final String json = new TreeJsonWriter().toJson(tree);

        int depth = 0;
        JsonNode node = new ObjectMapper(TreeJsonWriter.factory().rebuild()
            .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                .maxNestingDepth(5000).build()).build()).readTree(json).get("message");
        while (node.get("children").size() > 0)
        {
            node = node.get("children").get(0);
            depth++;
        }
        assertThat(depth).isEqualTo(999);
    }
}
