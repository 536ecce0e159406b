package io.cheetah.report;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class SketchSumTest
{
    private static String cells(final DurationSketch s)
    {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.cells(); i++)
        {
            sb.append(s.cellMinute(i)).append('/').append(s.cellKey(i)).append('=').append(s.cellCount(i)).append(' ');
        }
        return sb.toString();
    }

    @Test
    void aSumHasTheCellsOfAddingEverySketchOneByOneAndTheNextSumStartsEmpty()
    {
        final Random random = new Random(5);
        final SketchSum sum = SketchSum.local();
        for (int round = 0; round < 3; round++)
        {
            final DurationSketch reference = new DurationSketch();
            for (int n = 0; n < 40; n++)
            {
                final DurationSketch s = new DurationSketch();
                for (int i = random.nextInt(200); i > 0; i--)
                {
                    // rounds use different minutes, so a sum that kept an earlier round's cells shows them
                    s.add(round * 20 + random.nextInt(20), (long)Math.exp(random.nextDouble() * 14),
                        1 + random.nextInt(3));
                }
                sum.add(s);
                reference.addAll(s);
            }
            sum.add(null);
            final DurationSketch got = sum.take();
            assertThat(cells(got)).as("round %d", round).isEqualTo(cells(reference));
        }
        assertThat(sum.take()).as("nothing added: no sketch").isNull();
        sum.add(new DurationSketch());
        assertThat(sum.take().cells()).as("only empty sketches: an empty one, as addCounts makes").isZero();
    }
}
