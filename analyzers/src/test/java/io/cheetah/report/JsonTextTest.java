package io.cheetah.report;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JsonTextTest
{
    private static String quote(final String s) throws IOException
    {
        final StringBuilder sb = new StringBuilder();
        JsonText.quote(s, sb);
        return sb.toString();
    }

    @Test
    void escapesQuotesBackslashesAndControlCharacters() throws IOException
    {
        assertThat(quote("a\"b\\c\n\u0001")).isEqualTo("\"a\\\"b\\\\c\\u000a\\u0001\"");
    }

    @Test
    void escapesWhatCouldCloseAnHtmlScriptOrBreakJavaScript() throws IOException
    {
        assertThat(quote("</script>&\u2028\u2029")).isEqualTo("\"\\u003c/script\\u003e\\u0026\\u2028\\u2029\"");
    }

    @Test
    void keepsNonAsciiAndPairedSurrogatesButEscapesLoneOnes() throws IOException
    {
        assertThat(quote("交易 \uD83D\uDE00")).isEqualTo("\"交易 \uD83D\uDE00\"");
        assertThat(quote("a\uD83D")).isEqualTo("\"a\\ud83d\"");
        assertThat(quote("\uDE00a")).isEqualTo("\"\\ude00a\"");
        assertThat(quote("\uD83D\uD83D\uDE00")).isEqualTo("\"\\ud83d\uD83D\uDE00\"");
    }

    @Test
    void writesNullAsJsonNull() throws IOException
    {
        assertThat(quote(null)).isEqualTo("null");
    }

    @Test
    void writesArraysOfStrings() throws IOException
    {
        final StringBuilder sb = new StringBuilder();
        JsonText.strings(List.of("a", "<b>"), sb);
        JsonText.strings(List.of(), sb);
        assertThat(sb).hasToString("[\"a\",\"\\u003cb\\u003e\"][]");
    }
}
