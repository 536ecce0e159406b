package io.cheetah.logview.archive;

import io.cheetah.logview.LogviewStore;
import io.cheetah.logview.LogviewSearch;
import io.cheetah.logview.LogviewStore.Lookup;
import io.cheetah.logview.search.SearchHit;
import io.cheetah.logview.search.SearchPage;
import io.cheetah.logview.search.SearchQuery;
import io.cheetah.logview.LogviewWriter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Months of trees in HDFS, end to end: a NameNode and a DataNode in this JVM; the store's own uploader thread;
 * trees written through the writer, the hour closed, uploaded, its manifest checked in HDFS, the local copy deleted
 * by retention, trees found by id from HDFS. Then HDFS stops: another hour is written and closed, nothing is lost
 * (the local copy stays and answers, the backlog and the failures are counted); HDFS comes back on the same data and
 * the backlog drains.
 */
class LogviewArchiveSystemTest
{
    @TempDir
    Path dir;
    private MiniDFSCluster cluster;

    @AfterEach
    void stop()
    {
        if (cluster != null)
        {
            cluster.shutdown(true);
        }
    }

    @Test
    void keepsEveryTreeInHdfsAndLosesNothingWhileHdfsIsDown() throws Exception
    {
        final Path hdfsDir = Path.of("target", "minidfs-" + UUID.randomUUID());
        final int port = ArchiveFixtures.freePort();
        cluster = ArchiveFixtures.hdfs(hdfsDir, port, true);
        final String uri = "hdfs://127.0.0.1:" + port + "/cheetah/logview";
        final long nowHour = System.currentTimeMillis() / 3_600_000L;
        final long hourA = nowHour - 6;
        final long hourB = nowHour - 5;
        try (LogviewStore store = new LogviewStore(ArchiveFixtures.settings(dir, ArchiveFixtures.fast(uri)));
            FileSystem fs = FileSystem.newInstance(URI.create(uri), new Configuration()))
        {
            store.start();
            final LogviewWriter writer = store.writer(0);
            final long started = System.nanoTime();
            final Map<String, byte[]> a = ArchiveFixtures.writeHour(writer, hourA, 3_000, 11);
            final Path localA = store.hourDirectory(hourA);
            final long bytesA = LogviewArchive.localFiles(localA).values().stream().mapToLong(Long::longValue).sum();

            // uploaded by the store's own thread; the manifest in HDFS lists every local file with its length
            ArchiveFixtures.await("hour A archived", 60_000, () -> store.counters().archiveHoursUploaded() >= 1);
            final long uploadNanos = System.nanoTime() - started;
            final Manifest manifest;
            try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(uri + "/" +
                localA.getParent().getFileName() + "/" + localA.getFileName() + "/_ARCHIVED")))
            {
                manifest = Manifest.parse(in.readAllBytes());
            }
            assertThat(manifest).isNotNull();
            assertThat(manifest.hour()).isEqualTo(hourA);
            assertThat(manifest.sameFiles(LogviewArchive.localFiles(localA))).isTrue();
            assertThat(manifest.files().keySet()).contains("pay-p0.dat", "gateway-p0.idx", "order-service-p0.seg");
            System.out.printf("uploaded hour A: %,d bytes in %,d ms (write + wait + upload)%n", bytesA,
                uploadNanos / 1_000_000);

            // local copy past logview.localRetentionHours and archived whole: deleted by retention
            assertThat(store.cleanup(System.currentTimeMillis())).isEqualTo(1);
            assertThat(Files.exists(localA)).isFalse();

            // look-ups from HDFS, by position
            final List<String> ids = new ArrayList<>(a.keySet());
            final long[] micros = new long[300];
            for (int i = 0; i < micros.length; i++)
            {
                final String id = ids.get((i * 7919) % ids.size());
                final long t0 = System.nanoTime();
                final Lookup l = store.find(id);
                micros[i] = (System.nanoTime() - t0) / 1_000;
                assertThat(l.status()).as(id).isEqualTo(Lookup.Status.FOUND);
                assertThat(l.frame()).as(id).isEqualTo(a.get(id));
            }
            final long first = micros[0];
            Arrays.sort(micros);
            System.out.printf("look-ups from HDFS: first %,d us, median %,d us, max %,d us%n", first,
                micros[micros.length / 2], micros[micros.length - 1]);
            assertThat(micros[micros.length - 1]).as("slowest look-up, us").isLessThan(1_000_000);
            assertThat(store.counters().archiveLookups()).isEqualTo(300);
            assertThat(store.counters().archiveReadErrors()).isZero();
            assertThat(store.counters().damage()).isZero();

            // and by search, from the search index and blocks in HDFS
            final LogviewSearch search = LogviewSearch.of(store);
            final SearchQuery failures = new SearchQuery("pay", hourA * 3_600_000L, (hourA + 1) * 3_600_000L, "URL",
                null, "fail", null, null, null, null, 1_000, null);
            final SearchPage found = search.search(failures);
            assertThat(found.partial()).isFalse();
            assertThat(found.hits()).extracting(SearchHit::messageId).containsExactlyInAnyOrderElementsOf(
                a.keySet().stream().filter(id -> id.startsWith("pay-") && ArchiveFixtures.failed(id)).toList());
            assertThat(found.hits()).allMatch(h -> h.status().equals("Timeout"));
            assertThat(store.counters().search().damage()).isZero();

            // HDFS down: the next hour is written and closed all the same, and kept
            cluster.shutdown(false);
            cluster = null;
            final Map<String, byte[]> b = ArchiveFixtures.writeHour(writer, hourB, 1_000, 12);
            ArchiveFixtures.await("the failure counted and hour B in the backlog", 60_000, () ->
                store.counters().archiveFailures() > 0 && store.counters().archiveBacklogHours() == 1 &&
                    store.counters().archiveBacklogBytes() > 0);
            assertThat(store.cleanup(System.currentTimeMillis())).isZero();
            assertThat(store.counters().localHoursKeptUnarchived()).isEqualTo(1);
            assertThat(Files.isDirectory(store.hourDirectory(hourB))).isTrue();
            for (final Map.Entry<String, byte[]> e : b.entrySet())
            {
                assertThat(store.find(e.getKey()).frame()).as(e.getKey()).isEqualTo(e.getValue());
            }
            // an archived hour cannot be read meanwhile: answered as not found, and counted
            final long t0 = System.nanoTime();
            assertThat(store.find(ids.get(1)).status()).isEqualTo(Lookup.Status.NOT_FOUND);
            System.out.printf("look-up of an archived hour with HDFS down: %,d ms%n",
                (System.nanoTime() - t0) / 1_000_000);
            assertThat(store.counters().archiveReadErrors()).isPositive();
            // and a search of it is partial, never silently short
            final SearchPage down = search.search(failures);
            assertThat(down.partial()).isTrue();
            assertThat(down.hits()).isEmpty();
            assertThat(down.next()).isNotNull();

            // HDFS back on the same data and port: the backlog drains, and both hours are found from HDFS
            cluster = ArchiveFixtures.hdfs(hdfsDir, port, false);
            ArchiveFixtures.await("the backlog drained", 120_000, () ->
                store.counters().archiveHoursUploaded() >= 2 && store.counters().archiveBacklogHours() == 0);
            assertThat(store.counters().archiveBacklogBytes()).isZero();
            assertThat(store.cleanup(System.currentTimeMillis())).isEqualTo(1);
            assertThat(store.counters().localHoursKeptUnarchived()).isZero();
            assertThat(Files.exists(store.hourDirectory(hourB))).isFalse();
            for (int i = 0; i < 100; i++)
            {
                final String idA = ids.get(i * 29);
                assertThat(store.find(idA).frame()).as(idA).isEqualTo(a.get(idA));
            }
            for (final Map.Entry<String, byte[]> e : b.entrySet())
            {
                assertThat(store.find(e.getKey()).frame()).as(e.getKey()).isEqualTo(e.getValue());
            }
            assertThat(search.search(failures).hits()).hasSize(found.hits().size());
            assertThat(store.counters().damage()).isZero();
            assertThat(store.counters().archiveMismatches()).isZero();
        }
    }
}
