package io.cheetah.client;

import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ClientConfigLoader;
import io.cheetah.client.config.ServerAddress;

import java.util.ArrayList;
import java.util.List;

/**
 * The static API applications call, shaped like CAT's {@code com.dianping.cat.Cat} so that existing code ports by
 * changing imports. The first call starts the process-wide {@link CatClient} from the system configuration
 * ({@link ClientConfigLoader#fromSystem()}) unless {@link #initialize(ClientConfig)} ran before. Every method is
 * safe on any thread, never blocks and never throws.
 * <pre>
 *  Transaction t = Cat.newTransaction("URL", "/order");
 *  try { Cat.logEvent("Order", "created"); t.setStatus(Transaction.SUCCESS); }
 *  catch (Exception e) { t.setStatus(e); Cat.logError(e); }
 *  finally { t.complete(); }
 * </pre>
 */
public final class Cat
{
    private static final Object LOCK = new Object();
    private static volatile CatClient client;

    private Cat()
    {
    }

    /**
     * The properties a remote call carries between processes so their trees link up: the caller fills it with
     * {@link #logRemoteCallClient(Context)}, the callee reads it with {@link #logRemoteCallServer(Context)}.
     */
    public interface Context
    {
        /** Key of the root tree's id. */
        String ROOT = "_catRootMessageId";
        /** Key of the caller's tree id. */
        String PARENT = "_catParentMessageId";
        /** Key of the id the callee's tree takes. */
        String CHILD = "_catChildMessageId";

        /**
         * @param key   one of the keys above.
         * @param value its id.
         */
        void addProperty(String key, String value);

        /**
         * @param key one of the keys above.
         * @return its id, or null.
         */
        String getProperty(String key);
    }

    /**
     * Starts the process-wide client with this configuration, replacing (and closing) any running one.
     *
     * @param config the configuration.
     * @return the running client.
     */
    public static CatClient initialize(final ClientConfig config)
    {
        synchronized (LOCK)
        {
            final CatClient old = client;
            client = CatClient.start(config);
            if (old != null)
            {
                old.close();
            }
            return client;
        }
    }

    /**
     * CAT's {@code Cat.initialize(String... servers)}: the configuration read from the system (see README), with
     * these servers on CAT's ports (TCP 2280, HTTP 8080).
     *
     * @param servers host names or addresses.
     * @return the running client.
     */
    public static CatClient initialize(final String... servers)
    {
        return initialize(ClientConfigLoader.fromSystem().toBuilder()
            .servers(servers(servers, ServerAddress.DEFAULT_PORT, ServerAddress.DEFAULT_HTTP_PORT)).build());
    }

    /**
     * CAT's {@code Cat.initializeByDomain(domain, servers...)}.
     *
     * @param domain  the application's domain.
     * @param servers host names or addresses (TCP 2280, HTTP 8080).
     * @return the running client.
     */
    public static CatClient initializeByDomain(final String domain, final String... servers)
    {
        return initializeByDomain(domain, ServerAddress.DEFAULT_PORT, ServerAddress.DEFAULT_HTTP_PORT, servers);
    }

    /**
     * CAT's {@code Cat.initializeByDomain(domain, tcpPort, httpPort, servers...)}.
     *
     * @param domain   the application's domain.
     * @param tcpPort  the servers' TCP port.
     * @param httpPort the servers' HTTP (router) port.
     * @param servers  host names or addresses.
     * @return the running client.
     */
    public static CatClient initializeByDomain(final String domain, final int tcpPort, final int httpPort,
        final String... servers)
    {
        return initialize(ClientConfigLoader.fromSystem().toBuilder().domain(domain)
            .servers(servers(servers, tcpPort, httpPort)).build());
    }

    private static List<ServerAddress> servers(final String[] hosts, final int tcpPort, final int httpPort)
    {
        final List<ServerAddress> list = new ArrayList<>();
        for (final String host : hosts)
        {
            list.add(new ServerAddress(host.trim(), tcpPort, httpPort));
        }
        return list;
    }

    /**
     * Stops the process-wide client (sending what it can); the next call starts a new one.
     */
    public static void destroy()
    {
        synchronized (LOCK)
        {
            final CatClient old = client;
            client = null;
            if (old != null)
            {
                old.close();
            }
        }
    }

    /**
     * @return the process-wide client, started on first use.
     */
    public static CatClient getClient()
    {
        final CatClient c = client;
        return c != null ? c : start();
    }

    /**
     * @return true once a client has been started.
     */
    public static boolean isInitialized()
    {
        return client != null;
    }

    private static CatClient start()
    {
        synchronized (LOCK)
        {
            if (client == null)
            {
                client = CatClient.start(ClientConfigLoader.fromSystem());
            }
            return client;
        }
    }

    /** See {@link CatClient#logTrace(String, String, String, String)}. */
    public static void logTrace(final String type, final String name)
    {
        getClient().logTrace(type, name, Transaction.SUCCESS, "");
    }

    /** See {@link CatClient#logTrace(String, String, String, String)}. */
    public static void logTrace(final String type, final String name, final String status, final String data)
    {
        getClient().logTrace(type, name, status, data);
    }

    /** See {@link CatClient#newTransaction(String, String)}. */
    public static Transaction newTransaction(final String type, final String name)
    {
        return getClient().newTransaction(type, name);
    }

    /** See {@link CatClient#logEvent(String, String)}. */
    public static void logEvent(final String type, final String name)
    {
        getClient().logEvent(type, name);
    }

    /** See {@link CatClient#logEvent(String, String, String, String)}. */
    public static void logEvent(final String type, final String name, final String status, final String data)
    {
        getClient().logEvent(type, name, status, data);
    }

    /** See {@link CatClient#logError(String, Throwable)}. */
    public static void logError(final Throwable e)
    {
        getClient().logError(null, e);
    }

    /** See {@link CatClient#logError(String, Throwable)}. */
    public static void logError(final String message, final Throwable e)
    {
        getClient().logError(message, e);
    }

    /** See {@link CatClient#logHeartbeat(String, String, String, String)}. */
    public static void logHeartbeat(final String type, final String name, final String status, final String data)
    {
        getClient().logHeartbeat(type, name, status, data);
    }

    /** See {@link CatClient#logMetricForCount(String)}. */
    public static void logMetricForCount(final String name)
    {
        getClient().logMetricForCount(name);
    }

    /** See {@link CatClient#logMetricForCount(String, int)}. */
    public static void logMetricForCount(final String name, final int count)
    {
        getClient().logMetricForCount(name, count);
    }

    /** See {@link CatClient#logMetricForSum(String, double)}. */
    public static void logMetricForSum(final String name, final double value)
    {
        getClient().logMetricForSum(name, value);
    }

    /** See {@link CatClient#logMetricForSum(String, double, int)}. */
    public static void logMetricForSum(final String name, final double sum, final int count)
    {
        getClient().logMetricForSum(name, sum, count);
    }

    /** See {@link CatClient#logMetricForDuration(String, long)}. */
    public static void logMetricForDuration(final String name, final long durationMillis)
    {
        getClient().logMetricForDuration(name, durationMillis);
    }

    /** See {@link CatClient#getCurrentMessageId()}. */
    public static String getCurrentMessageId()
    {
        return getClient().getCurrentMessageId();
    }

    /** See {@link CatClient#createMessageId()}. */
    public static String createMessageId()
    {
        return getClient().createMessageId();
    }

    /** See {@link CatClient#logRemoteCallClient(Context)}. */
    public static void logRemoteCallClient(final Context ctx)
    {
        getClient().logRemoteCallClient(ctx);
    }

    /** See {@link CatClient#logRemoteCallServer(Context)}. */
    public static void logRemoteCallServer(final Context ctx)
    {
        getClient().logRemoteCallServer(ctx);
    }
}
