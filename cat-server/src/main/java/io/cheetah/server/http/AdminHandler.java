package io.cheetah.server.http;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code /cat/admin/*}: operator actions, today {@code POST /cat/admin/checkpoint} (checkpoint every open hour now,
 * in band through the rings, answering once the files are written). Mounted by the server wiring at
 * {@value #PREFIX}.
 * <p>
 * With {@code http.adminToken} set, a request must carry {@code Authorization: Bearer <token>} (missing: 401, wrong:
 * 403). Without a token, only loopback clients are served (others: 403), so a fresh install is not open to the
 * network. Every refusal says why and is counted.
 */
public final class AdminHandler extends Handler.Abstract
{
    /** Where the wiring mounts it. */
    public static final String PREFIX = "/cat/admin";

    /**
     * Forces a checkpoint of the open hours; called on an HTTP thread, may block.
     */
    @FunctionalInterface
    public interface Checkpoint
    {
        /**
         * @param timeoutMillis longest wait.
         * @return true when every open hour was checkpointed and written in time.
         */
        boolean run(long timeoutMillis);
    }

    private static final long CHECKPOINT_TIMEOUT_MS = 60_000;

    private final byte[] token;
    private final Checkpoint checkpoint;
    private final LongAdder refused = new LongAdder();
    private final LongAdder checkpoints = new LongAdder();

    /**
     * @param adminToken {@code http.adminToken} (empty: loopback clients only).
     * @param checkpoint the server's forced checkpoint.
     */
    public AdminHandler(final String adminToken, final Checkpoint checkpoint)
    {
        this.token = adminToken.getBytes(StandardCharsets.UTF_8);
        this.checkpoint = checkpoint;
    }

    /**
     * @return requests refused for missing or wrong credentials.
     */
    public long refused()
    {
        return refused.sum();
    }

    /**
     * @return checkpoints forced through this handler.
     */
    public long checkpoints()
    {
        return checkpoints.sum();
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback)
    {
        final String path = request.getHttpURI().getDecodedPath();
        if (path == null || !path.startsWith(PREFIX))
        {
            return false;
        }
        final SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
        final String reason = refusal(request.getHeaders().get(HttpHeader.AUTHORIZATION),
            remote instanceof InetSocketAddress ? ((InetSocketAddress)remote).getAddress() : null);
        if (reason != null)
        {
            refused.increment();
            if (reason.startsWith("missing"))
            {
                response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"cheetah-admin\"");
                text(response, callback, 401, reason);
            }
            else
            {
                text(response, callback, 403, reason);
            }
            return true;
        }
        final String action = path.substring(PREFIX.length());
        if ("/checkpoint".equals(action))
        {
            if (!"POST".equals(request.getMethod()))
            {
                response.getHeaders().put(HttpHeader.ALLOW, "POST");
                text(response, callback, 405, "use POST /cat/admin/checkpoint");
                return true;
            }
            final long started = System.nanoTime();
            final boolean done = checkpoint.run(CHECKPOINT_TIMEOUT_MS);
            checkpoints.increment();
            final long ms = (System.nanoTime() - started) / 1_000_000;
            if (done)
            {
                text(response, callback, 200, "checkpoint done in " + ms + " ms");
            }
            else
            {
                text(response, callback, 503, "checkpoint did not complete within " + ms + " ms");
            }
            return true;
        }
        text(response, callback, 404, "unknown admin action; known: POST /cat/admin/checkpoint");
        return true;
    }

    /**
     * @param header  the Authorization header, or null.
     * @param address the client's address, or null when unknown.
     * @return why the request is refused, or null when it may proceed.
     */
    String refusal(final String header, final InetAddress address)
    {
        if (token.length == 0)
        {
            return address != null && address.isLoopbackAddress() ? null :
                "no http.adminToken is configured: admin actions are served to loopback clients only";
        }
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7))
        {
            return "missing credentials: send Authorization: Bearer <http.adminToken>";
        }
        final byte[] given = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
        // constant time, so the token cannot be guessed byte by byte from response times
        return MessageDigest.isEqual(given, token) ? null : "wrong admin token";
    }

    private static void text(final Response response, final Callback callback, final int status, final String text)
    {
        final byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}
