package io.cheetah.server.http;

import io.cheetah.server.config.ServerConfig;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The Jetty server on http.port. Handlers are mounted by path prefix ({@link #mount}) before {@link #start()};
 * each is wrapped in a {@link ContextHandler} whose context path is the prefix, so a mounted handler sees paths
 * relative to it ({@code Request.getPathInContext}) and the longest matching prefix wins. Created and started by
 * the server wiring.
 */
public final class HttpServer implements AutoCloseable
{
    private final Server server;
    private final ServerConnector connector;
    private final ContextHandlerCollection contexts = new ContextHandlerCollection();

    /**
     * @param http host and port.
     */
    public HttpServer(final ServerConfig.Http http)
    {
        final QueuedThreadPool threads = new QueuedThreadPool(32, 2);
        threads.setName("cheetah-http");
        threads.setDaemon(true);
        server = new Server(threads);
        connector = new ServerConnector(server, 1, 1);
        connector.setHost(http.host());
        connector.setPort(http.port());
        server.addConnector(connector);
        server.setHandler(contexts);
        server.setStopAtShutdown(false);
    }

    /**
     * Mounts a handler under a path prefix, e.g. {@code /cat/r} or {@code /} for everything not mounted elsewhere.
     *
     * @param prefix  a path starting with {@code /}.
     * @param handler the handler.
     * @return this.
     */
    public HttpServer mount(final String prefix, final Handler handler)
    {
        final ContextHandler context = new ContextHandler(handler, prefix);
        context.setAllowNullPathInContext(true);
        contexts.addHandler(context);
        return this;
    }

    /**
     * Binds and starts serving.
     *
     * @throws Exception from Jetty (e.g. the port is taken).
     */
    public void start() throws Exception
    {
        server.start();
    }

    /**
     * @return the bound port.
     */
    public int port()
    {
        return connector.getLocalPort();
    }

    /**
     * Stops serving.
     */
    @Override
    public void close()
    {
        try
        {
            server.stop();
        }
        catch (final Exception e)
        {
            throw new IllegalStateException("stopping the HTTP server failed", e);
        }
    }
}
