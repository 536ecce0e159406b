package io.cheetah.client.config;

import java.util.List;

/**
 * Everything the client SDK needs to know, read once at start-up into this immutable object. Built by
 * {@link ClientConfigLoader} from system properties, environment variables, {@code META-INF/app.properties} and
 * CAT's {@code client.xml}, or directly with {@link #builder()} (tests, embedding code). Each setting has a property
 * key (below), an environment variable (the key upper-cased with {@code .} turned into {@code _}) and a default.
 */
public final class ClientConfig
{
    /** {@code true}/{@code false}: a disabled client records nothing and opens no connection. Default true. */
    public static final String ENABLED = "cat.enabled";
    /** The application key, the tree header's domain. Default: {@code app.name} of META-INF/app.properties, else
     * the {@code <domain id>} of client.xml, else {@code unknown}. */
    public static final String DOMAIN = "cat.domain";
    /** Servers as {@code host[:port[:httpPort]]} separated by {@code ,} or {@code ;}; replaces client.xml's list. */
    public static final String SERVERS = "cat.servers";
    /** The directory holding client.xml. Default {@code /data/appdatas/cat/}; also read from {@code CAT_HOME}. */
    public static final String HOME = "cat.home";
    /** The client IPv4 address written in headers and ids. Default: the first site-local IPv4 of this host. */
    public static final String IP = "cat.ip";
    /** The client host name written in headers. Default: the local host name. */
    public static final String HOSTNAME = "cat.hostname";
    /** Capacity of the queue of trees without failures. Default 5000. */
    public static final String QUEUE_SIZE = "cat.queue.size";
    /** Capacity of the queue of trees holding a failure, an error or a heartbeat. Default 2500. */
    public static final String HIGH_QUEUE_SIZE = "cat.queue.high.size";
    /** Milliseconds between router refreshes. Default 60000. */
    public static final String ROUTER_INTERVAL = "cat.router.interval.millis";
    /** Milliseconds between heartbeats. Default 60000. */
    public static final String HEARTBEAT_INTERVAL = "cat.heartbeat.interval.millis";
    /** Connect and read timeout of a router request, milliseconds. Default 2000. */
    public static final String ROUTER_TIMEOUT = "cat.router.timeout.millis";
    /** TCP connect timeout, milliseconds. Default 1000. */
    public static final String CONNECT_TIMEOUT = "cat.connect.timeout.millis";
    /** A write that makes no progress for this long closes the connection, milliseconds. Default 5000. */
    public static final String WRITE_TIMEOUT = "cat.write.timeout.millis";
    /** First reconnect delay after every server failed, milliseconds; doubles up to the maximum. Default 100. */
    public static final String RECONNECT_MIN = "cat.reconnect.min.millis";
    /** Longest reconnect delay, milliseconds. Default 5000. */
    public static final String RECONNECT_MAX = "cat.reconnect.max.millis";
    /** How often a client connected to a later server tries the earlier ones again, milliseconds. Default 1000. */
    public static final String FAILBACK_INTERVAL = "cat.failback.interval.millis";
    /** Bytes of encoded frames gathered before a socket write. Default 65536. */
    public static final String FLUSH_BYTES = "cat.flush.bytes";
    /** Messages kept per tree; later ones are dropped and counted. Default 2000 (CAT 3.x's truncation size). */
    public static final String MAX_TREE_MESSAGES = "cat.tree.max.messages";
    /** Characters kept of one message's data; the rest is cut and counted. Default 65536. */
    public static final String MAX_DATA_CHARS = "cat.data.max.chars";

    private final boolean enabled;
    private final String domain;
    private final List<ServerAddress> servers;
    private final String ip;
    private final String hostname;
    private final int queueSize;
    private final int highQueueSize;
    private final long routerIntervalMillis;
    private final long heartbeatIntervalMillis;
    private final int routerTimeoutMillis;
    private final int connectTimeoutMillis;
    private final long writeTimeoutMillis;
    private final long reconnectMinMillis;
    private final long reconnectMaxMillis;
    private final long failbackIntervalMillis;
    private final int flushBytes;
    private final int maxTreeMessages;
    private final int maxDataChars;
    private final String home;
    private final List<String> problems;

    private ClientConfig(final Builder b)
    {
        enabled = b.enabled;
        domain = b.domain;
        servers = List.copyOf(b.servers);
        ip = b.ip;
        hostname = b.hostname;
        queueSize = b.queueSize;
        highQueueSize = b.highQueueSize;
        routerIntervalMillis = b.routerIntervalMillis;
        heartbeatIntervalMillis = b.heartbeatIntervalMillis;
        routerTimeoutMillis = b.routerTimeoutMillis;
        connectTimeoutMillis = b.connectTimeoutMillis;
        writeTimeoutMillis = b.writeTimeoutMillis;
        reconnectMinMillis = b.reconnectMinMillis;
        reconnectMaxMillis = b.reconnectMaxMillis;
        failbackIntervalMillis = b.failbackIntervalMillis;
        flushBytes = b.flushBytes;
        maxTreeMessages = b.maxTreeMessages;
        maxDataChars = b.maxDataChars;
        home = b.home;
        problems = List.copyOf(b.problems);
    }

    /**
     * @return a builder holding every default.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    public boolean enabled()
    {
        return enabled;
    }

    public String domain()
    {
        return domain;
    }

    /**
     * @return the configured servers in priority order, used until the router answers and whenever it cannot.
     */
    public List<ServerAddress> servers()
    {
        return servers;
    }

    public String ip()
    {
        return ip;
    }

    public String hostname()
    {
        return hostname;
    }

    public int queueSize()
    {
        return queueSize;
    }

    public int highQueueSize()
    {
        return highQueueSize;
    }

    public long routerIntervalMillis()
    {
        return routerIntervalMillis;
    }

    public long heartbeatIntervalMillis()
    {
        return heartbeatIntervalMillis;
    }

    public int routerTimeoutMillis()
    {
        return routerTimeoutMillis;
    }

    public int connectTimeoutMillis()
    {
        return connectTimeoutMillis;
    }

    public long writeTimeoutMillis()
    {
        return writeTimeoutMillis;
    }

    public long reconnectMinMillis()
    {
        return reconnectMinMillis;
    }

    public long reconnectMaxMillis()
    {
        return reconnectMaxMillis;
    }

    public long failbackIntervalMillis()
    {
        return failbackIntervalMillis;
    }

    public int flushBytes()
    {
        return flushBytes;
    }

    public int maxTreeMessages()
    {
        return maxTreeMessages;
    }

    /**
     * @return the client's home directory ({@code CAT_HOME}) holding the message-id mark file, or null for none.
     */
    public String home()
    {
        return home;
    }

    public int maxDataChars()
    {
        return maxDataChars;
    }

    /**
     * @return what the loader could not use (each naming the key or file and what it did instead); empty when all
     * was well.
     */
    public List<String> problems()
    {
        return problems;
    }

    /**
     * @return a builder starting from this configuration.
     */
    public Builder toBuilder()
    {
        final Builder b = new Builder();
        b.enabled = enabled;
        b.domain = domain;
        b.servers = servers;
        b.ip = ip;
        b.hostname = hostname;
        b.queueSize = queueSize;
        b.highQueueSize = highQueueSize;
        b.routerIntervalMillis = routerIntervalMillis;
        b.heartbeatIntervalMillis = heartbeatIntervalMillis;
        b.routerTimeoutMillis = routerTimeoutMillis;
        b.connectTimeoutMillis = connectTimeoutMillis;
        b.writeTimeoutMillis = writeTimeoutMillis;
        b.reconnectMinMillis = reconnectMinMillis;
        b.reconnectMaxMillis = reconnectMaxMillis;
        b.failbackIntervalMillis = failbackIntervalMillis;
        b.flushBytes = flushBytes;
        b.maxTreeMessages = maxTreeMessages;
        b.maxDataChars = maxDataChars;
        b.home = home;
        b.problems = problems;
        return b;
    }

    @Override
    public String toString()
    {
        return "ClientConfig{enabled=" + enabled + ", domain=" + domain + ", ip=" + ip + ", servers=" + servers +
            ", queue=" + queueSize + "+" + highQueueSize + ", problems=" + problems.size() + "}";
    }

    /**
     * Collects settings; every setter checks its value and throws {@link ClientConfigException} naming the key.
     */
    public static final class Builder
    {
        private boolean enabled = true;
        private String domain = "unknown";
        private List<ServerAddress> servers = List.of();
        private String ip = "127.0.0.1";
        private String hostname = "localhost";
        private int queueSize = 5000;
        private int highQueueSize = 2500;
        private long routerIntervalMillis = 60_000;
        private long heartbeatIntervalMillis = 60_000;
        private int routerTimeoutMillis = 2000;
        private int connectTimeoutMillis = 1000;
        private long writeTimeoutMillis = 5000;
        private long reconnectMinMillis = 100;
        private long reconnectMaxMillis = 5000;
        private long failbackIntervalMillis = 1000;
        private int flushBytes = 65536;
        private int maxTreeMessages = 2000;
        private int maxDataChars = 65536;
        private String home;
        private List<String> problems = List.of();

        private Builder()
        {
        }

        public Builder enabled(final boolean v)
        {
            enabled = v;
            return this;
        }

        public Builder domain(final String v)
        {
            if (v == null || v.isBlank() || v.length() > 200)
            {
                throw new ClientConfigException(DOMAIN + ": '" + v + "' is not a domain (1..200 characters)");
            }
            domain = v.trim();
            return this;
        }

        public Builder servers(final List<ServerAddress> v)
        {
            servers = List.copyOf(v);
            return this;
        }

        public Builder ip(final String v)
        {
            if (v == null || !v.matches("\\d{1,3}(\\.\\d{1,3}){3}") || "00000000".equals(
                io.cheetah.message.MessageId.ipHex(v)) && !"0.0.0.0".equals(v))
            {
                throw new ClientConfigException(IP + ": '" + v + "' is not an IPv4 address");
            }
            ip = v;
            return this;
        }

        public Builder hostname(final String v)
        {
            if (v == null || v.isBlank())
            {
                throw new ClientConfigException(HOSTNAME + ": empty host name");
            }
            hostname = v;
            return this;
        }

        public Builder queueSize(final int v)
        {
            queueSize = (int)range(QUEUE_SIZE, v, 1, 1 << 24);
            return this;
        }

        public Builder highQueueSize(final int v)
        {
            highQueueSize = (int)range(HIGH_QUEUE_SIZE, v, 1, 1 << 24);
            return this;
        }

        public Builder routerIntervalMillis(final long v)
        {
            routerIntervalMillis = range(ROUTER_INTERVAL, v, 10, 86_400_000L);
            return this;
        }

        public Builder heartbeatIntervalMillis(final long v)
        {
            heartbeatIntervalMillis = range(HEARTBEAT_INTERVAL, v, 10, 86_400_000L);
            return this;
        }

        public Builder routerTimeoutMillis(final int v)
        {
            routerTimeoutMillis = (int)range(ROUTER_TIMEOUT, v, 1, 600_000);
            return this;
        }

        public Builder connectTimeoutMillis(final int v)
        {
            connectTimeoutMillis = (int)range(CONNECT_TIMEOUT, v, 1, 600_000);
            return this;
        }

        public Builder writeTimeoutMillis(final long v)
        {
            writeTimeoutMillis = range(WRITE_TIMEOUT, v, 1, 600_000);
            return this;
        }

        public Builder reconnectMinMillis(final long v)
        {
            reconnectMinMillis = range(RECONNECT_MIN, v, 1, 600_000);
            return this;
        }

        public Builder reconnectMaxMillis(final long v)
        {
            reconnectMaxMillis = range(RECONNECT_MAX, v, 1, 3_600_000);
            return this;
        }

        public Builder failbackIntervalMillis(final long v)
        {
            failbackIntervalMillis = range(FAILBACK_INTERVAL, v, 1, 3_600_000);
            return this;
        }

        public Builder flushBytes(final int v)
        {
            flushBytes = (int)range(FLUSH_BYTES, v, 512, 64 << 20);
            return this;
        }

        public Builder maxTreeMessages(final int v)
        {
            maxTreeMessages = (int)range(MAX_TREE_MESSAGES, v, 1, 1_000_000);
            return this;
        }

        /**
         * @param v the client's home directory ({@code CAT_HOME}), where the message-id mark file is kept; null keeps
         *          no mark (ids restart from 0 after a restart within the hour).
         * @return this.
         */
        public Builder home(final String v)
        {
            home = v;
            return this;
        }

        public Builder maxDataChars(final int v)
        {
            maxDataChars = (int)range(MAX_DATA_CHARS, v, 16, 64 << 20);
            return this;
        }

        Builder problems(final List<String> v)
        {
            problems = List.copyOf(v);
            return this;
        }

        /**
         * @return the configuration.
         * @throws ClientConfigException when settings contradict each other.
         */
        public ClientConfig build()
        {
            if (reconnectMaxMillis < reconnectMinMillis)
            {
                throw new ClientConfigException(RECONNECT_MAX + ": " + reconnectMaxMillis + " is below " +
                    RECONNECT_MIN + " " + reconnectMinMillis);
            }
            return new ClientConfig(this);
        }

        private static long range(final String key, final long v, final long min, final long max)
        {
            if (v < min || v > max)
            {
                throw new ClientConfigException(key + ": " + v + " is outside " + min + ".." + max);
            }
            return v;
        }
    }
}
