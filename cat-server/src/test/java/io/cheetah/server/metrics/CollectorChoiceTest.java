package io.cheetah.server.metrics;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CollectorChoiceTest
{
    @Test
    void shenandoahAndZgcNeedNoAdvice()
    {
        assertThat(CollectorChoice.advice(List.of("Shenandoah Pauses", "Shenandoah Cycles"))).isNull();
        assertThat(CollectorChoice.advice(List.of("ZGC Cycles", "ZGC Pauses"))).isNull();
        assertThat(CollectorChoice.advice(List.of("ZGC Minor Cycles", "ZGC Minor Pauses", "ZGC Major Cycles")))
            .isNull();
    }

    @Test
    void g1AndTheStopTheWorldCollectorsAreNamedWithTheOptionsToUseInstead()
    {
        assertThat(CollectorChoice.advice(List.of("G1 Young Generation", "G1 Old Generation")))
            .contains("G1 Young Generation").contains("--print-java-opts");
        assertThat(CollectorChoice.advice(List.of("PS Scavenge", "PS MarkSweep"))).contains("PS MarkSweep");
        assertThat(CollectorChoice.advice(List.of())).contains("unknown collector");
    }
}
