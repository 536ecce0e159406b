package io.cheetah.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.cheetah.logview.search.SearchParameters;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps docs/openapi.yaml honest: it parses, and documents every path and cap the handlers implement.
 */
class OpenApiDocumentTest
{
    @Test
    void documentsEveryEndpointAndCap() throws Exception
    {
        final Path root = Path.of(System.getProperty("cheetah.projectRoot", ".."));
        final JsonNode doc = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(root.resolve("docs/openapi.yaml")));
        assertThat(doc.path("openapi").asText()).startsWith("3.");
        assertThat(doc.path("paths").fieldNames()).toIterable().containsExactlyInAnyOrder(
            "/api/v1/alerts", "/api/v1/domains", "/api/v1/topology", "/api/v1/reports/{analyzer}", "/api/v1/reports/{analyzer}/machines",
            "/api/v1/reports/{analyzer}/native", "/api/v1/reports/{analyzer}/trend", "/cat/r/{page}", "/cat/r/model/{report}/{domain}/{period}",
            "/api/v1/logview/search");
        // the search's caps, as SearchParameters enforces them
        for (final JsonNode p : doc.path("paths").path("/api/v1/logview/search").path("get").path("parameters"))
        {
            final String name = p.path("name").asText();
            if (name.equals("limit"))
            {
                assertThat(p.path("schema").path("maximum").asInt()).isEqualTo(SearchParameters.MAX_LIMIT);
                assertThat(p.path("schema").path("default").asInt()).isEqualTo(SearchParameters.DEFAULT_LIMIT);
            }
            else if (p.path("schema").has("maxLength"))
            {
                assertThat(p.path("schema").path("maxLength").asInt()).as(name).isEqualTo(SearchParameters.MAX_TEXT);
            }
        }
        final JsonNode parameters = doc.path("components").path("parameters");
        assertThat(parameters.path("domain").path("schema").path("maxLength").asInt()).isEqualTo(ReportParameters.MAX_DOMAIN);
        assertThat(parameters.path("ip").path("schema").path("maxLength").asInt()).isEqualTo(ReportParameters.MAX_IP);
        assertThat(parameters.path("name").path("schema").path("maxLength").asInt()).isEqualTo(ReportParameters.MAX_NAME);
        assertThat(parameters.path("step").path("schema").path("maximum").asInt()).isEqualTo(ReportParameters.MAX_STEP);
    }
}
