package io.cheetah.server.config;

import io.cheetah.analysis.Level;

import java.util.List;
import java.util.Map;

/**
 * The whole server configuration, immutable. Built by {@link ConfigLoader}; read by the server's wiring at start.
 *
 * @param tcp       the ingest listener.
 * @param http      the HTTP server.
 * @param pipeline  rings, consumers and the priority gate.
 * @param router    what {@code /cat/s/router} tells clients.
 * @param storage   data directory and checkpoint cadence.
 * @param analyzers per-analyzer overrides by analyzer name (absent entries keep the type's defaults).
 */
public record ServerConfig(Tcp tcp, Http http, Pipeline pipeline, Router router, Storage storage,
                           Map<String, AnalyzerSettings> analyzers)
{
    /**
     * @param host            interface to bind, e.g. {@code 0.0.0.0}.
     * @param port            TCP port (2280; 0 = ephemeral, for tests).
     * @param workers         Netty event-loop threads that frame, decode and dispatch.
     * @param maxFrameBytes   largest payload a frame may declare; above it the connection is closed.
     * @param maxConnections  concurrent client connections; further ones are closed at once and counted.
     */
    public record Tcp(String host, int port, int workers, int maxFrameBytes, int maxConnections)
    {
    }

    /**
     * @param host       interface to bind.
     * @param port       HTTP port (8080; 0 = ephemeral).
     * @param adminToken token that admin operations require (empty = admin operations disabled).
     */
    public record Http(String host, int port, String adminToken)
    {
    }

    /**
     * @param rings            ring buffers; analyzer ring = index % rings.
     * @param ringSize         slots per ring (power of two).
     * @param consumersPerRing handlers per ring, each owning a partition of domains.
     * @param waitStrategy     consumer wait strategy: sleeping, yielding, busy-spin or blocking.
     * @param gate             free capacity each level needs.
     */
    public record Pipeline(int rings, int ringSize, int consumersPerRing, String waitStrategy, Gate gate)
    {
    }

    /**
     * Free-capacity thresholds of the priority gate.
     *
     * @param highFreeSlots free slots a HIGH analyzer needs (1).
     * @param midDivisor    a MID analyzer needs ringSize / midDivisor free slots (16).
     * @param lowDivisor    a LOW analyzer needs ringSize / lowDivisor free slots (4).
     */
    public record Gate(int highFreeSlots, int midDivisor, int lowDivisor)
    {
        /**
         * @param level    an analyzer's level.
         * @param ringSize slots of its ring.
         * @return the free slots the ring must have for the analyzer to be admitted.
         */
        public long threshold(final Level level, final int ringSize)
        {
            switch (level)
            {
                case LOW:
                    return Math.max(1, ringSize / lowDivisor);
                case MID:
                    return Math.max(1, ringSize / midDivisor);
                default:
                    return Math.max(1, highFreeSlots);
            }
        }
    }

    /**
     * @param advertisedHost host clients should connect to for this server (empty = the TCP host, or this
     *                       machine's address when binding every interface).
     * @param servers        further {@code host:port} TCP endpoints of a cluster, after this server.
     * @param sample         sampling ratio handed to clients.
     */
    public record Router(String advertisedHost, List<String> servers, double sample)
    {
    }

    /**
     * @param dataDir           where storage keeps checkpoints, logviews and the embedded database.
     * @param checkpointSeconds period of open-hour checkpoints.
     */
    public record Storage(String dataDir, int checkpointSeconds)
    {
    }

    /**
     * Overrides for one analyzer; null fields keep the analyzer type's default.
     *
     * @param enabled whether the analyzer runs.
     * @param index   its index (ring = index % rings; also its bit in dispatch masks' ordering).
     * @param level   its priority.
     */
    public record AnalyzerSettings(Boolean enabled, Integer index, Level level)
    {
    }
}
