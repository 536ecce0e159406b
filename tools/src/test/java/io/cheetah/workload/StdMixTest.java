package io.cheetah.workload;

import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StdMixTest
{
    private static final long T0 = 1_795_316_400_000L;

    @Test
    void theSameSeedGivesTheSameBytesAndAnotherSeedOthers()
    {
        for (final Variant v : Variant.values())
        {
            final byte[] a = frames(StdMix.builder().seed(7).variant(v).clock(() -> T0).build(), 500);
            final byte[] b = frames(StdMix.builder().seed(7).variant(v).clock(() -> T0).build(), 500);
            final byte[] c = frames(StdMix.builder().seed(8).variant(v).clock(() -> T0).build(), 500);
            assertThat(a).as(v.label()).isEqualTo(b);
            assertThat(a).as(v.label()).isNotEqualTo(c);
        }
    }

    @Test
    void stdTreesHaveTheStdShapeSizeAndFailureRate() throws MalformedFrameException
    {
        final StdMix mix = StdMix.builder().seed(3).clock(() -> T0).build();
        final TreeDecoder decoder = new TreeDecoder();
        final FlatTree tree = new FlatTree();
        final FrameWriter out = new FrameWriter();
        final int n = 20_000;
        long bytes = 0;
        int failed = 0;
        final int[] perDomain = new int[StdMix.DOMAINS];
        for (int k = 0; k < n; k++)
        {
            out.reset();
            bytes += mix.next(out);
            decoder.decodeFrame(out.array(), 0, out.length(), tree);
            final boolean fail = !tree.isSuccess(0);
            failed += fail ? 1 : 0;
            assertThat(tree.type(0)).isEqualTo("URL");
            assertThat(tree.count(MessageKind.TRANSACTION)).isEqualTo(7);
            assertThat(tree.count(MessageKind.EVENT)).isEqualTo(fail ? 13 : 12);
            assertThat(tree.messageId()).startsWith(tree.domain() + "-0a00");
            perDomain[Integer.parseInt(tree.domain().substring(4))]++;
        }
        final long average = bytes / n;
        assertThat(average).isBetween(1000L, 1500L);
        assertThat(failed).isBetween(n / 200, n / 50);
        final int[] sorted = perDomain.clone();
        java.util.Arrays.sort(sorted);
        // Zipf s = 0.8 over 100 domains puts the busiest at 50^0.8 = 23x the median (docs/workload.md)
        assertThat((double)sorted[StdMix.DOMAINS - 1] / sorted[StdMix.DOMAINS / 2]).isBetween(12.0, 40.0);
    }

    @Test
    void heartbeatsAreDueOncePerMachinePerMinuteWithAStatusXmlOfAbout2Kb() throws MalformedFrameException
    {
        final long[] now = {T0};
        final StdMix mix = StdMix.builder().seed(1).clock(() -> now[0]).build();
        final TreeDecoder decoder = new TreeDecoder();
        final FlatTree tree = new FlatTree();
        final Set<String> machines = new HashSet<>();
        int beats = 0;
        for (int k = 0; k < 39_999; k++)
        {
            now[0] += 3; // trees for just under two minutes: the second minute beats every machine once
            final MessageTree t = mix.nextTree();
            if ("Status".equals(t.root().name()))
            {
                beats++;
                machines.add(t.ipAddress());
                final byte[] frame = io.cheetah.codec.Nt1Encoder.encode(t);
                decoder.decodeFrame(frame, 0, frame.length, tree);
                assertThat(tree.kind(1)).isEqualTo(MessageKind.HEARTBEAT);
                assertThat(tree.dataLength(1)).isBetween(1800, 2600);
                assertThat(tree.data(1)).startsWith("<?xml").contains("<status ").endsWith("</status>\r\n");
            }
        }
        assertThat(beats).isEqualTo(1000);
        assertThat(machines).hasSize(1000);
        final StdMix frozen = StdMix.builder().seed(1).clock(() -> T0).build();
        for (int k = 0; k < 5_000; k++)
        {
            assertThat(frozen.nextTree().root().name()).isNotEqualTo("Status");
        }
    }

    @Test
    void variantsDoWhatTheySay()
    {
        final StdMix storm = StdMix.builder().seed(1).variant(Variant.ERROR_STORM).clock(() -> T0).build();
        int failed = 0;
        for (int k = 0; k < 1000; k++)
        {
            final MessageTree t = storm.nextTree();
            if (!t.root().isSuccess())
            {
                failed++;
                assertThat(Nt1EncoderSize.of(t)).isGreaterThan(4096);
            }
        }
        assertThat(failed).isBetween(250, 350);

        final StdMix bomb = StdMix.builder().seed(1).variant(Variant.CARDINALITY_BOMB).clock(() -> T0).build();
        final Set<String> names = new HashSet<>();
        for (int k = 0; k < 100; k++)
        {
            names.add(bomb.nextTree().root().name());
        }
        assertThat(names).hasSize(100);

        final StdMix batch = StdMix.builder().seed(1).variant(Variant.BATCH).clock(() -> T0).build();
        final MessageTree tx = batch.nextTree();
        final MessageTree ev = batch.nextTree();
        assertThat(tx.root().name() + " " + ev.root().name()).isEqualTo("TransactionAggregator EventAggregator");
        final TransactionMessage txRoot = (TransactionMessage)tx.root();
        assertThat(txRoot.children()).allMatch(c -> c.data().matches("@\\d+;\\d+;\\d+;(\\d+,\\d+\\|?)+;"));
        assertThat(((TransactionMessage)ev.root()).children())
            .allMatch(c -> c.data().matches("@\\d+;\\d+"));
        assertThatThrownBy(() -> Variant.of("nope")).hasMessageContaining("std-mix");
        assertThat(Variant.of("cardinality-bomb")).isEqualTo(Variant.CARDINALITY_BOMB);
    }

    private static byte[] frames(final StdMix mix, final int n)
    {
        final FrameWriter out = new FrameWriter();
        for (int k = 0; k < n; k++)
        {
            mix.next(out);
        }
        return out.toByteArray();
    }

    private static final class Nt1EncoderSize
    {
        static int of(final MessageTree t)
        {
            return io.cheetah.codec.Nt1Encoder.encode(t).length;
        }
    }
}
