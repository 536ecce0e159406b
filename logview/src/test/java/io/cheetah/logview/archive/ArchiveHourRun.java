package io.cheetah.logview.archive;

import io.cheetah.logview.LogviewStore;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.nio.file.Path;

/**
 * A measuring tool, not a test: uploads the logview hours under a data directory (such as one hour of std-mix built
 * by the benchmarks' {@code SearchHour}) to an HDFS started in this JVM (one NameNode and one DataNode on loopback,
 * data under the given directory), through the store's own uploader, and prints the time and throughput.
 * <pre>
 * mvn -q -o -pl logview -am test-compile -Dmaven.test.skip=false -DskipTests
 * java -cp logview/target/test-classes:logview/target/classes:$(cat cp.txt) \
 *   io.cheetah.logview.archive.ArchiveHourRun &lt;dataDir&gt; &lt;hdfsDir&gt;
 * </pre>
 */
public final class ArchiveHourRun
{
    private ArchiveHourRun()
    {
    }

    /**
     * @param args the data directory holding {@code logview/}, and a directory for HDFS's own files.
     * @throws Exception on a failure.
     */
    public static void main(final String[] args) throws Exception
    {
        final Path data = Path.of(args[0]);
        final Path hdfsDir = Path.of(args[1]);
        final int port = ArchiveFixtures.freePort();
        final MiniDFSCluster cluster = ArchiveFixtures.hdfs(hdfsDir, port, true);
        try (LogviewStore store = new LogviewStore(ArchiveFixtures.settings(data,
                ArchiveFixtures.fast("hdfs://127.0.0.1:" + port + "/cheetah/logview")));
            LogviewArchive archive = new LogviewArchive(store))
        {
            final ArchiveUploader uploader = new ArchiveUploader(store, archive, store.settings().archive());
            final long t0 = System.nanoTime();
            while (uploader.round(System.currentTimeMillis()) && store.counters().archiveBacklogHours() > 0)
            {
                Thread.onSpinWait();
            }
            final double seconds = (System.nanoTime() - t0) / 1e9;
            final long bytes = store.counters().archiveBytesUploaded();
            System.out.printf("uploaded %d hour(s), %,d bytes in %.0f s (%.0f MB/s), failures %d, mismatches %d%n",
                store.counters().archiveHoursUploaded(), bytes, seconds, bytes / seconds / 1e6,
                store.counters().archiveFailures(), store.counters().archiveMismatches());
        }
        finally
        {
            cluster.shutdown(true);
        }
    }
}
