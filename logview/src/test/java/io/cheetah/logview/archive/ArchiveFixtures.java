package io.cheetah.logview.archive;

import io.cheetah.logview.ArchiveSettings;
import io.cheetah.logview.LogviewSettings;
import io.cheetah.logview.LogviewWriter;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * What the archive tests share: a real HDFS (NameNode and DataNode in the test JVM, loopback only, data under
 * {@code target/}), settings with a fast uploader, and trees written through the store's writer.
 */
final class ArchiveFixtures
{
    private ArchiveFixtures()
    {
    }

    /**
     * @param baseDir where the cluster keeps its name and data directories (kept across a restart).
     * @param port    the NameNode's port (the same one after a restart, so clients find it again).
     * @param format  whether to format (a new cluster) or to start on the data left by the previous one.
     * @return the running cluster, out of safe mode.
     */
    static MiniDFSCluster hdfs(final Path baseDir, final int port, final boolean format) throws IOException
    {
        Files.createDirectories(baseDir);
        final Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.toAbsolutePath().toString());
        conf.set("hadoop.tmp.dir", baseDir.resolve("tmp").toAbsolutePath().toString());
        conf.set("dfs.namenode.rpc-address", "127.0.0.1:" + port);
        conf.set("dfs.datanode.address", "127.0.0.1:0");
        conf.set("dfs.datanode.http.address", "127.0.0.1:0");
        conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
        conf.set("dfs.namenode.http-address", "127.0.0.1:0");
        conf.setBoolean("dfs.permissions.enabled", false);
        final MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, baseDir.toAbsolutePath().toFile())
            .numDataNodes(1).nameNodePort(port).format(format).checkExitOnShutdown(false).build();
        cluster.waitActive();
        return cluster;
    }

    static int freePort() throws IOException
    {
        try (ServerSocket s = new ServerSocket(0))
        {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    /**
     * @param dir     the data directory.
     * @param archive where sealed hours go.
     * @return store settings with small blocks (many per hour) and that archive.
     */
    static LogviewSettings settings(final Path dir, final ArchiveSettings archive)
    {
        return new LogviewSettings(dir, 7, 8192, 60_000, 1_000, 65_536, 8, 10, archive);
    }

    /**
     * @param uri the archive.
     * @return a fast uploader (every 200 ms, back-off 200 ms to 1 s), local copies kept 1 hour.
     */
    static ArchiveSettings fast(final String uri)
    {
        return new ArchiveSettings(uri, 1, 30, 200, 200, 1_000);
    }

    /**
     * Writes trees of one hour for a few domains and clients, then closes the hour.
     *
     * @return id to the exact frame written.
     */
    static Map<String, byte[]> writeHour(final LogviewWriter w, final long hour, final int count, final long seed)
    {
        final Random rnd = new Random(seed);
        final String[] domains = {"pay", "order-service", "gateway"};
        final String[] clients = {"0a000001", "0a000002.77", "c0a80005"};
        final Map<String, byte[]> written = new LinkedHashMap<>();
        final FlatTree t = new FlatTree();
        final TreeDecoder decoder = new TreeDecoder();
        for (int i = 0; i < count; i++)
        {
            final String domain = domains[i % domains.length];
            final String id = domain + "-" + clients[(i / 3) % clients.length] + "-" + hour + "-" + i;
            final byte[] frame = frame(domain, id, hour * 3_600_000L + i, i, 50 + rnd.nextInt(2000), rnd);
            try
            {
                decoder.decodeFrame(frame, 0, frame.length, t);
            }
            catch (final MalformedFrameException e)
            {
                throw new IllegalStateException(e);
            }
            w.append(t, hour * 3_600_000L);
            written.put(id, frame);
        }
        w.closeHour(hour * 3_600_000L);
        return written;
    }

    /**
     * @param id a message id {@link #writeHour} wrote.
     * @return whether its tree failed: one in ten, a {@code URL /u<i % 7>} transaction with status {@code Timeout}.
     */
    static boolean failed(final String id)
    {
        return Long.parseLong(id.substring(id.lastIndexOf('-') + 1)) % 10 == 0;
    }

    /** A real NT1 tree (a URL transaction whose data is partly compressible random text) under the given id. */
    private static byte[] frame(final String domain, final String id, final long time, final int i, final int payload,
        final Random rnd)
    {
        final StringBuilder data = new StringBuilder(payload);
        for (int k = 0; k < payload; k++)
        {
            data.append((char)(rnd.nextInt(4) == 0 ? 'A' + rnd.nextInt(26) : 'a' + (k % 7)));
        }
        final TransactionMessage root = new TransactionMessage("URL", "/u" + (i % 7), i % 10 == 0 ? "Timeout" : "0",
            data.toString(), time, 1_000 + i);
        return Nt1Encoder.encode(new MessageTree().domain(domain).hostname("host").ipAddress("10.0.0.1")
            .messageId(id).root(root));
    }

    /**
     * Waits for a condition, polling every 50 ms.
     */
    static void await(final String what, final long timeoutMillis, final java.util.function.BooleanSupplier done)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!done.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50);
        }
    }
}
