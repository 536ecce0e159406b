package io.cheetah.server;

import io.cheetah.server.config.ConfigException;
import io.cheetah.server.config.ServerConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Another way of running the server that a module on the class path plugs in (the Kafka mode of module
 * {@code kafka}), found with {@link ServiceLoader} by {@link FullServer#start}: it may change how the server is
 * assembled before it starts (e.g. hand the ingest's trees to an outlet) and runs parts of its own beside it, which
 * stop before the server does.
 */
public interface ServerMode
{
    /**
     * @param config the configuration.
     * @return whether the configuration asks for this mode.
     */
    boolean wanted(ServerConfig config);

    /**
     * Called before the server starts.
     *
     * @param config  the configuration.
     * @param builder the server being assembled.
     * @throws ConfigException when the configuration cannot run in this mode (naming the key).
     */
    void assemble(ServerConfig config, CheetahServer.Builder builder);

    /**
     * Called once the server and its stores run.
     *
     * @param server the running server.
     * @return what to stop before the server stops.
     * @throws Exception when the mode cannot start (the server is then stopped).
     */
    AutoCloseable start(FullServer server) throws Exception;

    /**
     * @param config the configuration.
     * @return the modes on the class path that the configuration asks for.
     * @throws ConfigException when {@code kafka.bootstrapServers} is set and no mode on the class path takes it.
     */
    static List<ServerMode> wantedBy(final ServerConfig config)
    {
        final List<ServerMode> modes = new ArrayList<>();
        for (final ServerMode mode : ServiceLoader.load(ServerMode.class))
        {
            if (mode.wanted(config))
            {
                modes.add(mode);
            }
        }
        if (config.kafka().enabled() && modes.isEmpty())
        {
            throw new ConfigException("kafka.bootstrapServers: the Kafka mode is not on the class path; put " +
                "cheetah-kafka.jar beside cheetah-server.jar (scripts/cat-server does: lib/ in the release, " +
                "kafka/target after mvn package -pl kafka -am in a checkout)");
        }
        return modes;
    }
}
