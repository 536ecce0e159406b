package io.cheetah.replay;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Fetches a server's {@code /metrics} page over HTTP and parses it. A failed scrape returns
 * {@link MetricsSample#empty()} and is counted, so the replay keeps running while the server is busy or gone.
 * Called once a second by the replay tool's progress loop.
 */
public final class MetricsScraper
{
    private final URI uri;
    private long failures;
    private String lastFailure = "";

    /**
     * @param uri the metrics page, e.g. {@code http://127.0.0.1:8080/metrics}.
     */
    public MetricsScraper(final URI uri)
    {
        this.uri = uri;
    }

    /**
     * @return the current figures, or an empty sample when the page could not be read.
     */
    public MetricsSample scrape()
    {
        try
        {
            final HttpURLConnection c = (HttpURLConnection)uri.toURL().openConnection();
            c.setConnectTimeout(2_000);
            c.setReadTimeout(5_000);
            try (InputStream in = c.getInputStream())
            {
                if (c.getResponseCode() != 200)
                {
                    throw new IOException("HTTP " + c.getResponseCode());
                }
                return MetricsSample.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        catch (final IOException | RuntimeException e)
        {
            failures++;
            lastFailure = e.toString();
            return MetricsSample.empty();
        }
    }

    /**
     * @return scrapes that failed.
     */
    public long failures()
    {
        return failures;
    }

    /**
     * @return why the last failed scrape failed, or empty.
     */
    public String lastFailure()
    {
        return lastFailure;
    }

    /**
     * @return the scraped address.
     */
    public URI uri()
    {
        return uri;
    }
}
