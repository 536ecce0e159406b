package io.cheetah.client.transport;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RouterAnswerParserTest
{
    @Test
    void readsScalarsOfKvsAndSkipsTheRest() throws Exception
    {
        final Map<String, String> kvs = RouterAnswerParser.kvs(" {\"status\":{\"code\":[1,2,{\"x\":null}]}, " +
            "\"kvs\" : {\"routers\":\"a:1;\\u0062:2;\",\"sample\":0.25,\"block\":true,\"nested\":{\"k\":\"v\"}," +
            "\"gone\":null,\"esc\":\"q\\\"\\\\\\/\\n\"}, \"after\": -1.5e3 } ");
        assertThat(kvs).containsOnly(Map.entry("routers", "a:1;b:2;"), Map.entry("sample", "0.25"),
            Map.entry("block", "true"), Map.entry("esc", "q\"\\/\n"));
        assertThat(RouterAnswerParser.kvs("{}")).isEmpty();
    }

    @Test
    void syntaxErrorsNameWhereTheyAre()
    {
        assertThatThrownBy(() -> RouterAnswerParser.kvs("{\"kvs\":{\"routers\":\"a:1\"}"))
            .isInstanceOf(IOException.class).hasMessage("expected '}' at offset 24");
        assertThatThrownBy(() -> RouterAnswerParser.kvs("{\"kvs\":{\"sample\":01}}"))
            .isInstanceOf(IOException.class).hasMessageStartingWith("unexpected value");
        assertThatThrownBy(() -> RouterAnswerParser.kvs("{\"kvs\":{}} x"))
            .isInstanceOf(IOException.class).hasMessageStartingWith("trailing characters");
        assertThatThrownBy(() -> RouterAnswerParser.kvs("{\"a\":" + "[".repeat(40) + "]".repeat(40) + "}"))
            .isInstanceOf(IOException.class).hasMessageStartingWith("nested too deep");
        assertThatThrownBy(() -> RouterAnswerParser.kvs("{\"a\":\"x\ty\"}"))
            .isInstanceOf(IOException.class).hasMessageStartingWith("control character");
    }
}
