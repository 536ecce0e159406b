package io.cheetah.server.cluster;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.logview.LogviewSearchHandler;
import io.cheetah.logview.search.SearchPage;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.GZIPInputStream;

/**
 * Asks the other members for their part of an open hour ({@link PeerHandler}), all at once, each within
 * {@code cluster.peerTimeoutMillis}. Used by {@link ClusterReports} on the HTTP threads.
 */
public final class PeerClient
{
    /** What a member answered. */
    public enum Status
    {
        /** Its part (possibly none). */
        ANSWERED,
        /** The hour is closed on that member: its part is in MySQL, or on its way there. */
        CLOSED,
        /** No usable answer in time. */
        FAILED
    }

    /**
     * One member's answer.
     *
     * @param status  what came back.
     * @param report  its report (ANSWERED with a report), else null.
     * @param domains its domains (ANSWERED, for a domains question), else empty.
     * @param frame   the raw tree (ANSWERED, for a tree it holds), else null.
     */
    public record Answer(Status status, Report report, List<String> domains, byte[] frame)
    {
        Answer(final Status status, final Report report, final List<String> domains)
        {
            this(status, report, domains, null);
        }
    }

    private final HttpClient http;
    private final long timeoutMillis;
    private final LongAdder asked = new LongAdder();
    private final LongAdder failed = new LongAdder();

    /**
     * @param timeoutMillis {@code cluster.peerTimeoutMillis}.
     */
    public PeerClient(final long timeoutMillis)
    {
        this.timeoutMillis = timeoutMillis;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(timeoutMillis))
            .version(HttpClient.Version.HTTP_1_1).build();
    }

    /**
     * @param peers    the members to ask.
     * @param analyzer analyzer name.
     * @param domain   domain.
     * @param hour     epoch ms of the hour.
     * @param format   decodes their answers.
     * @return each member's answer, by member id, in the order of {@code peers}.
     */
    public Map<String, Answer> reports(final List<Member> peers, final String analyzer, final String domain,
        final long hour, final ReportFormat format)
    {
        final String query = "report?analyzer=" + enc(analyzer) + "&domain=" + enc(domain) + "&hour=" + hour;
        return askAll(peers, query, body -> new Answer(Status.ANSWERED, body == null ? null : decode(format, body),
            List.of()), format.version());
    }

    /**
     * @param peers    the members to ask.
     * @param analyzer analyzer name.
     * @param hour     epoch ms of the hour.
     * @return each member's answer, by member id.
     */
    public Map<String, Answer> domains(final List<Member> peers, final String analyzer, final long hour)
    {
        final String query = "domains?analyzer=" + enc(analyzer) + "&hour=" + hour;
        return askAll(peers, query, body ->
        {
            final List<String> domains = new ArrayList<>();
            if (body != null)
            {
                for (final String line : new String(body, StandardCharsets.UTF_8).split("\n"))
                {
                    if (!line.isEmpty())
                    {
                        domains.add(line);
                    }
                }
            }
            return new Answer(Status.ANSWERED, null, domains);
        }, -1);
    }

    /**
     * @param peers     the members to ask, in order.
     * @param messageId a message id.
     * @return the raw frame of the first member that holds the tree, or null when none does; {@code failedTo}
     *         gets the ids of the members that did not answer.
     */
    public byte[] tree(final List<Member> peers, final String messageId, final List<String> failedTo)
    {
        final Map<String, Answer> answers = askAll(peers, "tree?id=" + enc(messageId),
            body -> new Answer(Status.ANSWERED, null, List.of(), body), -1);
        for (final Map.Entry<String, Answer> e : answers.entrySet())
        {
            if (e.getValue().status() == Status.ANSWERED && e.getValue().frame() != null)
            {
                return e.getValue().frame();
            }
            if (e.getValue().status() == Status.FAILED)
            {
                failedTo.add(e.getKey());
            }
        }
        return null;
    }

    /**
     * Asks every member for its own page of a logview search.
     *
     * @param peers the members to ask.
     * @param query the search's parameters as a query string (times in epoch ms).
     * @return each member's page by member id, null for a member that did not answer in time or usably.
     */
    public Map<String, SearchPage> search(final List<Member> peers, final String query)
    {
        final Map<String, SearchPage> pages = new LinkedHashMap<>();
        final Map<String, Answer> answers = askAll(peers, "search?" + query,
            body -> new Answer(Status.ANSWERED, null, List.of(), body), -1);
        for (final Map.Entry<String, Answer> e : answers.entrySet())
        {
            SearchPage page = null;
            if (e.getValue().status() == Status.ANSWERED && e.getValue().frame() != null)
            {
                try
                {
                    page = LogviewSearchHandler.read(e.getValue().frame());
                }
                catch (final IOException ex)
                {
                    failed.increment();
                }
            }
            pages.put(e.getKey(), page);
        }
        return pages;
    }

    /** @return questions sent to other members. */
    public long asked()
    {
        return asked.sum();
    }

    /** @return questions without a usable answer in time. */
    public long failed()
    {
        return failed.sum();
    }

    private interface BodyReader
    {
        Answer read(byte[] body) throws IOException;
    }

    private Map<String, Answer> askAll(final List<Member> peers, final String query, final BodyReader reader,
        final int formatVersion)
    {
        final Map<String, CompletableFuture<HttpResponse<byte[]>>> pending = new LinkedHashMap<>();
        for (final Member m : peers)
        {
            asked.increment();
            final HttpRequest request = HttpRequest.newBuilder(URI.create(m.httpUrl() + PeerHandler.PREFIX + query))
                .timeout(Duration.ofMillis(timeoutMillis)).header("Accept-Encoding", "gzip").GET().build();
            pending.put(m.id(), http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()));
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        final Map<String, Answer> answers = new LinkedHashMap<>();
        for (final Map.Entry<String, CompletableFuture<HttpResponse<byte[]>>> e : pending.entrySet())
        {
            answers.put(e.getKey(), answer(e.getValue(), deadline, reader, formatVersion));
        }
        return answers;
    }

    private Answer answer(final CompletableFuture<HttpResponse<byte[]>> future, final long deadline,
        final BodyReader reader, final int formatVersion)
    {
        try
        {
            final HttpResponse<byte[]> r = future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (r.statusCode() == 409)
            {
                return new Answer(Status.CLOSED, null, List.of());
            }
            if (r.statusCode() == 204 || r.statusCode() == 404 && formatVersion < 0)
            {
                return reader.read(null);
            }
            final String version = r.headers().firstValue(PeerHandler.FORMAT_VERSION).orElse("");
            if (r.statusCode() != 200 || formatVersion >= 0 && !String.valueOf(formatVersion).equals(version))
            {
                failed.increment(); // another status, or a member running another report format
                return new Answer(Status.FAILED, null, List.of());
            }
            final boolean gzip = r.headers().firstValue("Content-Encoding").map("gzip"::equalsIgnoreCase)
                .orElse(false);
            return reader.read(gzip ? gunzip(r.body()) : r.body());
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            future.cancel(true);
        }
        catch (final Exception e)
        {
            future.cancel(true);
        }
        failed.increment();
        return new Answer(Status.FAILED, null, List.of());
    }

    private static Report decode(final ReportFormat format, final byte[] body) throws IOException
    {
        return format.decode(body);
    }

    private static byte[] gunzip(final byte[] body) throws IOException
    {
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(body)))
        {
            return in.readAllBytes();
        }
    }

    private static String enc(final String s)
    {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
