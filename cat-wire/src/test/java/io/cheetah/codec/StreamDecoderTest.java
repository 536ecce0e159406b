package io.cheetah.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every malformed vector yields its typed error, decoding goes on at the next frame where framing allows, and the
 * counts fall in the ranges of {@code malformed/expected.json}.
 */
class StreamDecoderTest
{
    /**
     * The error each file must produce. {@code nt1-deep-nesting} is rejected as TOO_DEEP because
     * {@link DecodeLimits#DEFAULT} caps depth at 1,000 (expected.json allows it: countedTreesAtLeast 2,
     * badFramesAtMost 1); {@code nt1-invalid-utf8} is accepted with U+FFFD replacements.
     */
    private static final Map<String, List<FrameError>> ERRORS = Map.ofEntries(
        Map.entry("baseline.frames", List.of()),
        Map.entry("truncated-payload.frames", List.of(FrameError.STRING_OVERRUN)), // cut inside a string
        Map.entry("truncated-stream.frames", List.of(FrameError.INCOMPLETE_AT_EOF)),
        Map.entry("truncated-prefix.frames", List.of(FrameError.INCOMPLETE_AT_EOF)),
        Map.entry("length-exceeds-data.frames", List.of(FrameError.UNKNOWN_RECORD)),
        Map.entry("zero-length.frames", List.of(FrameError.NON_POSITIVE_LENGTH)),
        Map.entry("negative-length.frames", List.of(FrameError.NON_POSITIVE_LENGTH)),
        Map.entry("negative-min-length.frames", List.of(FrameError.NON_POSITIVE_LENGTH)),
        Map.entry("huge-length.frames", List.of(FrameError.FRAME_TOO_LARGE)),
        Map.entry("unknown-codec.frames", List.of(FrameError.UNKNOWN_CODEC)),
        Map.entry("nt1-varint-overlong.frames", List.of(FrameError.VARINT_TOO_LONG)),
        Map.entry("nt1-string-overrun.frames", List.of(FrameError.STRING_OVERRUN)),
        Map.entry("nt1-unbalanced-end.frames", List.of(FrameError.END_WITHOUT_BEGIN)),
        Map.entry("nt1-unclosed-begin.frames", List.of(FrameError.UNCLOSED_TRANSACTION)),
        Map.entry("nt1-deep-nesting.frames", List.of(FrameError.TOO_DEEP)),
        Map.entry("nt1-invalid-utf8.frames", List.of()));

    @Test
    void everyMalformedVectorYieldsItsTypedErrorAndTheExpectedCounts() throws Exception
    {
        final JsonNode expected = new ObjectMapper().readTree(Vectors.text("malformed/expected.json"));
        assertThat(expected.size()).isEqualTo(ERRORS.size());
        for (final JsonNode e : expected)
        {
            final String file = e.get("file").asText();
            final List<FrameError> errors = new ArrayList<>();
            final List<String> names = new ArrayList<>();
            final StreamDecoder stream = new StreamDecoder(listener(names, errors));
            final byte[] bytes = Vectors.bytes("malformed/" + file);
            boolean usable = true;
            for (int at = 0; at < bytes.length && usable; at += 50)
            {
                usable = stream.feed(bytes, at, Math.min(50, bytes.length - at));
            }
            if (usable)
            {
                stream.finish();
            }
            final long trees = stream.trees();
            final long bad = stream.badFrames();

            if (file.equals("length-exceeds-data.frames"))
            {
                // the swallowed prefix of the next frame reads as record tag 0x00; after it the stream is out of
                // step, and whatever follows (a bad frame, an implausible prefix, EOF inside a frame) is an error
                assertThat(errors.get(0)).as(file).isEqualTo(FrameError.UNKNOWN_RECORD);
            }
            else
            {
                assertThat(errors).as(file).isEqualTo(ERRORS.get(file));
            }
            assertThat(names).as(file).allMatch(n -> n.startsWith("/good/") || n.indexOf('\uFFFD') >= 0);
            assertThat(trees).as(file + " trees").isBetween(
                e.path("countedTreesAtLeast").asLong(e.get("countedTrees").asLong()),
                e.path("countedTreesAtMost").asLong(e.get("countedTrees").asLong()));
            assertThat(bad).as(file + " bad frames").isBetween(
                e.path("badFramesAtLeast").asLong(e.get("badFrames").asLong()),
                e.path("badFramesAtMost").asLong(e.has("badFramesAtLeast") ? Long.MAX_VALUE :
                    e.get("badFrames").asLong()));
        }
    }

    @Test
    void invalidUtf8IsReplacedNotRejected()
    {
        final List<String> names = new ArrayList<>();
        final StreamDecoder stream = new StreamDecoder(listener(names, new ArrayList<>()));
        final byte[] bytes = Vectors.bytes("malformed/nt1-invalid-utf8.frames");
        stream.feed(bytes, 0, bytes.length);
        assertThat(names).anyMatch(n -> n.indexOf('\uFFFD') >= 0);
    }

    @Test
    void deepNestingIsAcceptedUnderAHigherDepthCap()
    {
        final DecodeLimits limits = new DecodeLimits(1 << 20, 20_000, 100_000);
        final List<String> names = new ArrayList<>();
        final int[] size = new int[1];
        final StreamDecoder stream = new StreamDecoder(new TreeDecoder(limits, new Utf8Interner()),
            new FrameReader(limits.maxFrameBytes()), new StreamDecoder.Listener()
            {
                @Override
                public void onTree(final FlatTree tree, final long streamOffset)
                {
                    size[0] = Math.max(size[0], tree.size());
                }

                @Override
                public void onError(final MalformedFrameException error, final long streamOffset)
                {
                    names.add(error.getMessage());
                }
            });
        final byte[] bytes = Vectors.bytes("malformed/nt1-deep-nesting.frames");
        stream.feed(bytes, 0, bytes.length);
        stream.finish();
        assertThat(names).isEmpty();
        assertThat(stream.trees()).isEqualTo(3);
        assertThat(size[0]).isEqualTo(10_000);
    }

    private static StreamDecoder.Listener listener(final List<String> names, final List<FrameError> errors)
    {
        return new StreamDecoder.Listener()
        {
            @Override
            public void onTree(final FlatTree tree, final long streamOffset)
            {
                names.add(tree.name(0));
            }

            @Override
            public void onError(final MalformedFrameException error, final long streamOffset)
            {
                errors.add(error.error());
            }
        };
    }
}
