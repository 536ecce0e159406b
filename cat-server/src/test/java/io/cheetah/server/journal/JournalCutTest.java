package io.cheetah.server.journal;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JournalCutTest
{
    @Test
    void encodesAndDecodesPerAnalyzerPositions()
    {
        final Map<String, long[]> m = new LinkedHashMap<>();
        m.put("transaction", new long[] {10, 4});
        m.put("dump", new long[] {12});
        final JournalCut cut = new JournalCut(m);
        final JournalCut back = JournalCut.decode(cut.encode());
        assertThat(back).isEqualTo(cut);
        assertThat(back.position("transaction", 1)).isEqualTo(4);
        assertThat(back.position("dump", 1)).as("a journal begun after the checkpoint").isZero();
        assertThat(back.covers("event")).isFalse();
        assertThat(back.lowest(2)).containsExactly(10, 0);
        assertThat(back.highest()).containsExactly(12, 4);
    }

    @Test
    void refusesWhatIsNotACut()
    {
        assertThatThrownBy(() -> JournalCut.decode("hello\n1 2".getBytes()))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a journal cut");
    }
}
