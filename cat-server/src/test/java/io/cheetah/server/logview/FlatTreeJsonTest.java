package io.cheetah.server.logview;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;
import io.cheetah.message.Transaction;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FlatTreeJsonTest
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void everyNt1VectorFrameMatchesItsJsonLine() throws Exception
    {
        int compared = 0;
        for (final String capture : Vectors.CAPTURES)
        {
            final List<byte[]> frames = Vectors.frames(Vectors.bytes(capture + ".frames"));
            final String[] lines = Vectors.text(capture + ".jsonl").split("\n");
            final TreeDecoder decoder = new TreeDecoder();
            final FlatTree tree = new FlatTree();
            for (int i = 0; i < frames.size(); i++)
            {
                final byte[] f = frames.get(i);
                if (f[4] != 'N' || f[5] != 'T' || f[6] != '1')
                {
                    continue;
                }
                decoder.decodeFrame(f, 0, f.length, tree);
                final StringBuilder out = new StringBuilder();
                FlatTreeJson.INSTANCE.write(tree, out);
                final JsonNode expected = MAPPER.readTree(lines[i]);
                assertThat(MAPPER.readTree(out.toString())).as(capture + " frame " + i).isEqualTo(expected);
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(150);
    }

    @Test
    void deepTreesAreWrittenWithoutRecursion() throws Exception
    {
        final FlatTree tree = deepTree(20_000);
        final StringBuilder out = new StringBuilder();
        FlatTreeJson.INSTANCE.write(tree, out);
        int depth = 0;
        final ObjectMapper deep = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(100_000).build()).build());
        JsonNode node = deep.readTree(out.toString()).get("message");
        while (node.has("children") && node.get("children").size() > 0)
        {
            node = node.get("children").get(0);
            depth++;
        }
        assertThat(depth).isEqualTo(19_999);
    }

    static FlatTree deepTree(final int depth) throws Exception
    {
        final Transaction root = new Transaction("Deep", "level-0", "0", "", 1_795_316_668_527L, 1);
        Transaction t = root;
        for (int i = 1; i < depth; i++)
        {
            final Transaction child = new Transaction("Deep", "level-" + i, "0", "", 1_795_316_668_527L, 1);
            t.addChild(child);
            t = child;
        }
        final MessageTree mt = new MessageTree().domain("deep").messageId("deep-0a000001-498699-1").root(root);
        final byte[] frame = Nt1Encoder.encode(mt);
        final FlatTree tree = new FlatTree();
        new TreeDecoder(new DecodeLimits(32 << 20, Integer.MAX_VALUE, 1_000_000), new Utf8Interner())
            .decodeFrame(frame, 0, frame.length, tree);
        return tree;
    }
}
