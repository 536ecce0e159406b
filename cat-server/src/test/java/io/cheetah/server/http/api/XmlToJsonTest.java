package io.cheetah.server.http.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class XmlToJsonTest
{
    private static String json(final String xml) throws IOException
    {
        final StringWriter out = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(out))
        {
            new XmlToJson().write(xml, json);
        }
        return out.toString();
    }

    @Test
    void attributesBecomePropertiesAndChildrenArrays() throws Exception
    {
        assertThat(json("<?xml version=\"1.0\"?><r domain=\"d\"><domain>d</domain><ip>1.2.3.4</ip>" +
            "<machine ip=\"All\"><type id=\"200\" totalCount=\"7\" failPercent=\"14.29\" min=\"-1\" sum2=\"1.5E10\">" +
            "<successMessageUrl>m-1</successMessageUrl></type></machine></r>"))
            .isEqualTo("{\"domain\":\"d\",\"domains\":[\"d\"],\"ip\":[\"1.2.3.4\"],\"machine\":[{\"ip\":\"All\",\"type\":" +
                "[{\"id\":\"200\",\"totalCount\":7,\"failPercent\":14.29,\"min\":-1,\"sum2\":1.5E10," +
                "\"successMessageUrl\":[\"m-1\"]}]}]}");
    }

    @Test
    void textThatLooksLikeNumbersOrScriptStaysAString() throws Exception
    {
        assertThat(json("<r><name id=\"&lt;img src=x&gt;\" count=\"NaN\" v=\"1.2.3\" w=\"1e\"/></r>"))
            .isEqualTo("{\"name\":[{\"id\":\"<img src=x>\",\"count\":\"NaN\",\"v\":\"1.2.3\",\"w\":\"1e\"}]}");
    }

    @Test
    void emptyDocumentIsNullAndBrokenXmlIsAnError() throws Exception
    {
        assertThat(json("")).isEqualTo("null");
        assertThatThrownBy(() -> json("<r><a></r>")).isInstanceOf(IOException.class).hasMessageContaining("not well-formed");
        assertThatThrownBy(() -> json("<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r a=\"&x;\"/>"))
            .isInstanceOf(IOException.class);
    }
}
