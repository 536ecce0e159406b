package io.cheetah.client.config;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * Reads the client configuration once, leniently: a value that cannot be used falls back to its default and the
 * reason (naming the key or file) goes into {@link ClientConfig#problems()}, so a typo never stops the application
 * that embeds the client. Precedence, highest first: system property, environment variable, client.xml
 * (servers, {@code enabled}, domain) or META-INF/app.properties ({@code app.name}), default.
 * <pre>
 *  -Dcat.* ─┐
 *  CAT_*  ──┼─▶ ClientConfigLoader ─▶ ClientConfig (immutable) + problems
 *  app.properties, $CAT_HOME/client.xml ─┘
 * </pre>
 */
public final class ClientConfigLoader
{
    /** Where CAT keeps client.xml when {@code CAT_HOME} is not set. */
    public static final String DEFAULT_HOME = "/data/appdatas/cat/";

    private final Map<String, String> properties;
    private final Map<String, String> environment;
    private final ClassLoader classLoader;
    private final List<String> problems = new ArrayList<>();

    /**
     * @param properties  system properties (or a test's map).
     * @param environment environment variables (or a test's map).
     * @param classLoader where META-INF/app.properties is looked up; null to skip it.
     */
    public ClientConfigLoader(final Map<String, String> properties, final Map<String, String> environment,
        final ClassLoader classLoader)
    {
        this.properties = properties;
        this.environment = environment;
        this.classLoader = classLoader;
    }

    /**
     * @return the configuration from this process's system properties, environment and class path.
     */
    public static ClientConfig fromSystem()
    {
        final Map<String, String> props = new java.util.HashMap<>();
        for (final String name : System.getProperties().stringPropertyNames())
        {
            props.put(name, System.getProperty(name));
        }
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        if (cl == null)
        {
            cl = ClientConfigLoader.class.getClassLoader();
        }
        return new ClientConfigLoader(props, System.getenv(), cl).load();
    }

    /**
     * @return the configuration; never throws for bad input, see {@link ClientConfig#problems()}.
     */
    public ClientConfig load()
    {
        final ClientConfig.Builder b = ClientConfig.builder();
        final ClientXml xml = readClientXml();
        b.home(home());

        String domain = value(ClientConfig.DOMAIN);
        if (domain == null)
        {
            domain = appName();
        }
        if (domain == null && xml != null)
        {
            domain = xml.domain;
        }
        if (domain != null)
        {
            final String d = domain;
            apply(ClientConfig.DOMAIN, d, v -> b.domain(v));
        }

        boolean enabled = xml == null || xml.enabled;
        final String enabledText = value(ClientConfig.ENABLED);
        if (enabledText != null)
        {
            if ("true".equalsIgnoreCase(enabledText.trim()) || "false".equalsIgnoreCase(enabledText.trim()))
            {
                enabled = Boolean.parseBoolean(enabledText.trim());
            }
            else
            {
                problems.add(ClientConfig.ENABLED + ": '" + enabledText + "' is not true or false; using " + enabled);
            }
        }
        b.enabled(enabled);

        final String serversText = value(ClientConfig.SERVERS);
        if (serversText != null)
        {
            try
            {
                b.servers(parseServers(serversText));
            }
            catch (final ClientConfigException e)
            {
                problems.add(e.getMessage() + "; using " + (xml == null ? "no servers" : "client.xml servers"));
                if (xml != null)
                {
                    b.servers(xml.servers);
                }
            }
        }
        else if (xml != null)
        {
            b.servers(xml.servers);
        }

        final String ip = value(ClientConfig.IP);
        b.ip(LocalHost.IP);
        if (ip != null)
        {
            apply(ClientConfig.IP, ip, b::ip);
        }
        b.hostname(LocalHost.NAME);
        final String host = value(ClientConfig.HOSTNAME);
        if (host != null)
        {
            apply(ClientConfig.HOSTNAME, host, b::hostname);
        }

        integer(ClientConfig.QUEUE_SIZE, v -> b.queueSize((int)v));
        integer(ClientConfig.HIGH_QUEUE_SIZE, v -> b.highQueueSize((int)v));
        integer(ClientConfig.ROUTER_INTERVAL, b::routerIntervalMillis);
        integer(ClientConfig.HEARTBEAT_INTERVAL, b::heartbeatIntervalMillis);
        integer(ClientConfig.ROUTER_TIMEOUT, v -> b.routerTimeoutMillis((int)v));
        integer(ClientConfig.CONNECT_TIMEOUT, v -> b.connectTimeoutMillis((int)v));
        integer(ClientConfig.WRITE_TIMEOUT, b::writeTimeoutMillis);
        integer(ClientConfig.RECONNECT_MIN, b::reconnectMinMillis);
        integer(ClientConfig.RECONNECT_MAX, b::reconnectMaxMillis);
        integer(ClientConfig.FAILBACK_INTERVAL, b::failbackIntervalMillis);
        integer(ClientConfig.FLUSH_BYTES, v -> b.flushBytes((int)v));
        integer(ClientConfig.MAX_TREE_MESSAGES, v -> b.maxTreeMessages((int)v));
        integer(ClientConfig.MAX_DATA_CHARS, v -> b.maxDataChars((int)v));

        ClientConfig config;
        try
        {
            config = b.problems(problems).build();
        }
        catch (final ClientConfigException e)
        {
            problems.add(e.getMessage() + "; using the default reconnect delays");
            config = b.reconnectMinMillis(100).reconnectMaxMillis(5000).problems(problems).build();
        }
        return config;
    }

    /**
     * Parses {@code host[:port[:httpPort]]} items separated by {@code ,} or {@code ;}.
     *
     * @param text the value of {@link ClientConfig#SERVERS}.
     * @return the servers in the given order.
     * @throws ClientConfigException naming the item that is not a server.
     */
    public static List<ServerAddress> parseServers(final String text)
    {
        final List<ServerAddress> servers = new ArrayList<>();
        for (final String item : text.split("[,;]"))
        {
            final String s = item.trim();
            if (s.isEmpty())
            {
                continue;
            }
            final String[] parts = s.split(":", -1);
            try
            {
                if (parts.length > 3)
                {
                    throw new IllegalArgumentException("too many ':'");
                }
                final int port = parts.length > 1 ? Integer.parseInt(parts[1].trim()) : ServerAddress.DEFAULT_PORT;
                final int http = parts.length > 2 ? Integer.parseInt(parts[2].trim()) : ServerAddress.DEFAULT_HTTP_PORT;
                servers.add(new ServerAddress(parts[0].trim(), port, http));
            }
            catch (final IllegalArgumentException e)
            {
                throw new ClientConfigException(ClientConfig.SERVERS + ": '" + s +
                    "' is not host[:port[:httpPort]] (" + e.getMessage() + ")");
            }
        }
        return servers;
    }

    /** What client.xml contributes. */
    static final class ClientXml
    {
        boolean enabled = true;
        String domain;
        List<ServerAddress> servers = List.of();
    }

    /**
     * Parses a CAT client.xml: {@code <config enabled><servers><server ip port http-port enabled/></servers>
     * <domain id/></config>}.
     *
     * @param in   the file's bytes.
     * @param name shown in errors.
     * @return what the file says.
     * @throws ClientConfigException naming the file and what is wrong.
     */
    static ClientXml parseClientXml(final InputStream in, final String name)
    {
        final Document doc;
        try
        {
            final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            final DocumentBuilder db = f.newDocumentBuilder();
            db.setErrorHandler(null);
            doc = db.parse(in);
        }
        catch (final Exception e)
        {
            throw new ClientConfigException(name + ": not well-formed XML (" + e.getMessage() + ")");
        }
        final Element root = doc.getDocumentElement();
        if (!"config".equals(root.getTagName()))
        {
            throw new ClientConfigException(name + ": root element is <" + root.getTagName() + ">, expected <config>");
        }
        final ClientXml xml = new ClientXml();
        xml.enabled = !"false".equalsIgnoreCase(root.getAttribute("enabled").trim());
        final List<ServerAddress> servers = new ArrayList<>();
        final NodeList serverNodes = root.getElementsByTagName("server");
        for (int i = 0; i < serverNodes.getLength(); i++)
        {
            final Element s = (Element)serverNodes.item(i);
            if ("false".equalsIgnoreCase(s.getAttribute("enabled").trim()))
            {
                continue;
            }
            final String ip = s.getAttribute("ip").trim();
            try
            {
                servers.add(new ServerAddress(ip, port(s, "port", ServerAddress.DEFAULT_PORT),
                    port(s, "http-port", ServerAddress.DEFAULT_HTTP_PORT)));
            }
            catch (final IllegalArgumentException e)
            {
                throw new ClientConfigException(name + ": <server ip=\"" + ip + "\"> " + e.getMessage());
            }
        }
        xml.servers = Collections.unmodifiableList(servers);
        final NodeList domains = root.getElementsByTagName("domain");
        if (domains.getLength() > 0)
        {
            final String id = ((Element)domains.item(0)).getAttribute("id").trim();
            xml.domain = id.isEmpty() ? null : id;
        }
        return xml;
    }

    private static int port(final Element e, final String attribute, final int defaultPort)
    {
        final String text = e.getAttribute(attribute).trim();
        if (text.isEmpty())
        {
            return defaultPort;
        }
        try
        {
            return Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(attribute + " '" + text + "' is not a number");
        }
    }

    private String home()
    {
        String home = value(ClientConfig.HOME);
        if (home == null)
        {
            home = properties.get("CAT_HOME");
        }
        return home == null ? DEFAULT_HOME : home;
    }

    private ClientXml readClientXml()
    {
        final Path file = Path.of(home(), "client.xml");
        if (!Files.isRegularFile(file))
        {
            return null;
        }
        try (InputStream in = Files.newInputStream(file))
        {
            return parseClientXml(in, file.toString());
        }
        catch (final ClientConfigException e)
        {
            problems.add(e.getMessage() + "; ignoring the file");
        }
        catch (final IOException e)
        {
            problems.add(file + ": cannot be read (" + e + "); ignoring the file");
        }
        return null;
    }

    private String appName()
    {
        if (classLoader == null)
        {
            return null;
        }
        try (InputStream in = classLoader.getResourceAsStream("META-INF/app.properties"))
        {
            if (in == null)
            {
                return null;
            }
            final Properties p = new Properties();
            p.load(in);
            final String name = p.getProperty("app.name");
            return name == null || name.isBlank() ? null : name.trim();
        }
        catch (final IOException | IllegalArgumentException e)
        {
            problems.add("META-INF/app.properties: cannot be read (" + e + "); ignoring app.name");
            return null;
        }
    }

    /**
     * @param key a property key such as {@code cat.queue.size}.
     * @return the system property, else the environment variable {@code CAT_QUEUE_SIZE}, else null.
     */
    private String value(final String key)
    {
        final String p = properties.get(key);
        if (p != null)
        {
            return p;
        }
        return environment.get(envName(key));
    }

    /**
     * @param key a property key.
     * @return its environment variable name.
     */
    public static String envName(final String key)
    {
        return key.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
    }

    private interface LongSetter
    {
        void set(long v);
    }

    private void integer(final String key, final LongSetter setter)
    {
        final String text = value(key);
        if (text == null)
        {
            return;
        }
        try
        {
            setter.set(Long.parseLong(text.trim()));
        }
        catch (final NumberFormatException e)
        {
            problems.add(key + ": '" + text + "' is not an integer; using the default");
        }
        catch (final ClientConfigException e)
        {
            problems.add(e.getMessage() + "; using the default");
        }
    }

    private void apply(final String key, final String text, final Consumer<String> setter)
    {
        try
        {
            setter.accept(text);
        }
        catch (final ClientConfigException e)
        {
            problems.add(e.getMessage() + "; using the default");
        }
    }

    /** This host's address and name, looked up once per process (the look-up can take a while). */
    private static final class LocalHost
    {
        static final String IP = localIp();
        static final String NAME = localHostname();
    }

    private static String localIp()
    {
        try
        {
            String fallback = null;
            for (final NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces()))
            {
                if (!ni.isUp() || ni.isLoopback())
                {
                    continue;
                }
                for (final InetAddress a : Collections.list(ni.getInetAddresses()))
                {
                    if (a instanceof Inet4Address)
                    {
                        if (a.isSiteLocalAddress())
                        {
                            return a.getHostAddress();
                        }
                        if (fallback == null && !a.isLinkLocalAddress())
                        {
                            fallback = a.getHostAddress();
                        }
                    }
                }
            }
            return fallback != null ? fallback : "127.0.0.1";
        }
        catch (final Exception e)
        {
            return "127.0.0.1";
        }
    }

    private static String localHostname()
    {
        try
        {
            return InetAddress.getLocalHost().getHostName();
        }
        catch (final Exception e)
        {
            return "localhost";
        }
    }
}
