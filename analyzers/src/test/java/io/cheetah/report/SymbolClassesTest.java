package io.cheetah.report;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SymbolClassesTest
{
    @Test
    void aSymbolIsClassifiedOnceAndAStringWithoutOneEveryTime()
    {
        final List<String> asked = new ArrayList<>();
        final SymbolClasses classes = new SymbolClasses(s ->
        {
            asked.add(s);
            return "SQL".equals(s) ? 1 : 0;
        });

        assertThat(classes.of(7, "SQL")).isEqualTo(1);
        assertThat(classes.of(7, "SQL")).isEqualTo(1);
        assertThat(classes.of(8, "URL")).isZero();
        assertThat(classes.of(8, "URL")).isZero(); // a class of no flags is remembered too
        assertThat(asked).containsExactly("SQL", "URL");

        assertThat(classes.of(-1, "SQL")).isEqualTo(1);
        assertThat(classes.of(-1, "SQL")).isEqualTo(1);
        assertThat(asked).containsExactly("SQL", "URL", "SQL", "SQL");
    }

    @Test
    void theTableGrowsToLargeSymbolsKeepingWhatItKnewAndTheLargestAreClassifiedEachTime()
    {
        final int[] calls = new int[1];
        final SymbolClasses classes = new SymbolClasses(s ->
        {
            calls[0]++;
            return s.length();
        });
        assertThat(classes.of(3, "abc")).isEqualTo(3);
        assertThat(classes.of(100_000, "abcde")).isEqualTo(5);
        assertThat(classes.of(SymbolClasses.MAX_SYMBOLS - 1, "ab")).isEqualTo(2);
        assertThat(calls[0]).isEqualTo(3);
        assertThat(classes.of(3, "abc")).isEqualTo(3);
        assertThat(classes.of(100_000, "abcde")).isEqualTo(5);
        assertThat(classes.of(SymbolClasses.MAX_SYMBOLS - 1, "ab")).isEqualTo(2);
        assertThat(calls[0]).isEqualTo(3);

        assertThat(classes.of(SymbolClasses.MAX_SYMBOLS, "a")).isEqualTo(1);
        assertThat(classes.of(SymbolClasses.MAX_SYMBOLS, "a")).isEqualTo(1);
        assertThat(calls[0]).isEqualTo(5);
    }

    @Test
    void flagsBeyondSevenBitsAreCutOffRatherThanMistakenForTheKnownMark()
    {
        final SymbolClasses classes = new SymbolClasses(s -> 0xFF);
        assertThat(classes.of(1, "x")).isEqualTo(SymbolClasses.FLAG_MASK);
        assertThat(classes.of(1, "x")).isEqualTo(SymbolClasses.FLAG_MASK);
        assertThat(classes.of(-1, "x")).isEqualTo(SymbolClasses.FLAG_MASK);
    }
}
