package io.cheetah.logview.archive;

import io.cheetah.logview.LogviewStore;
import io.cheetah.logview.LogviewStore.Lookup;
import io.cheetah.logview.PositionalFile;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The archive's contract, held by a real HDFS (a MiniDFSCluster in this JVM) and by a plain directory through
 * {@code file://} alike: every regular file of a sealed hour is uploaded and verified, the manifest comes last and
 * is the only proof of a complete hour, local copies go only once the archive holds them whole, and look-ups read
 * archived hours by position. The uploader's rounds are driven by hand here (the store's own thread is not started).
 */
class LogviewArchiveTest
{
    private static MiniDFSCluster cluster;
    private static String hdfsBase;

    @TempDir
    Path dir;

    @BeforeAll
    static void startHdfs() throws IOException
    {
        final Path base = Path.of("target", "minidfs-" + UUID.randomUUID());
        cluster = ArchiveFixtures.hdfs(base, ArchiveFixtures.freePort(), true);
        hdfsBase = "hdfs://127.0.0.1:" + cluster.getNameNodePort();
    }

    @AfterAll
    static void stopHdfs()
    {
        if (cluster != null)
        {
            cluster.shutdown(true);
        }
    }

    private String uri(final String kind)
    {
        final String unique = "/cheetah/" + UUID.randomUUID();
        return kind.equals("hdfs") ? hdfsBase + unique : dir.resolve("nfs").toUri().toString().replaceAll("/$", "") +
            unique;
    }

    private static long nowHour()
    {
        return System.currentTimeMillis() / 3_600_000L;
    }

    @ParameterizedTest
    @ValueSource(strings = {"hdfs", "file"})
    void uploadsEveryFileOfASealedHourAndFindsItsTreesOnceTheLocalCopyIsGone(final String kind) throws Exception
    {
        final String uri = uri(kind);
        final long hour = nowHour() - 6;
        try (LogviewStore store = new LogviewStore(ArchiveFixtures.settings(dir, ArchiveFixtures.fast(uri)));
            LogviewArchive archive = new LogviewArchive(store))
        {
            final Map<String, byte[]> written = ArchiveFixtures.writeHour(store.writer(0), hour, 600, 1);
            // files of every kind go: the search index's (.six) and one the archive knows nothing of
            final byte[] six = "another kind of file".getBytes(StandardCharsets.UTF_8);
            Files.write(store.hourDirectory(hour).resolve("zz-p0.extra"), six);
            final Map<String, Long> local = LogviewArchive.localFiles(store.hourDirectory(hour));
            assertThat(local.keySet()).contains("zz-p0.extra").anyMatch(n -> n.endsWith(".six"))
                .anyMatch(n -> n.endsWith(".dat"));

            assertThat(store.hourFileNames(hour)).containsExactlyElementsOf(local.keySet()); // the local ones
            assertThat(store.cleanup(System.currentTimeMillis())).isZero(); // not archived yet: kept, counted
            assertThat(store.counters().localHoursKeptUnarchived()).isEqualTo(1);

            final ArchiveUploader uploader = new ArchiveUploader(store, archive, store.settings().archive());
            assertThat(uploader.round(System.currentTimeMillis())).isTrue();
            assertThat(store.counters().archiveHoursUploaded()).isEqualTo(1);
            assertThat(store.counters().archiveBytesUploaded()).isEqualTo(
                local.values().stream().mapToLong(Long::longValue).sum());
            assertThat(store.counters().archiveBacklogHours()).isZero();

            final Manifest m = archive.manifest(hour);
            assertThat(m.sameFiles(local)).isTrue();
            for (final Manifest.Entry e : m.files().values())
            {
                assertThat(e.crc32c()).as(e.name())
                    .isEqualTo(LogviewArchive.crc32c(store.hourDirectory(hour).resolve(e.name())));
            }
            if (kind.equals("hdfs"))
            {
                // HDFS verified the copies without reading them back: its composite file checksum is the CRC32C
                final org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
                conf.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
                try (FileSystem fs = FileSystem.newInstance(URI.create(uri), conf))
                {
                    final Manifest.Entry e = m.files().get("pay-p0.dat");
                    final var sum = fs.getFileChecksum(new org.apache.hadoop.fs.Path(archive.hourPath(hour), e.name()));
                    assertThat(sum.getAlgorithmName()).isEqualTo("COMPOSITE-CRC32C");
                    assertThat(ByteBuffer.wrap(sum.getBytes()).getInt()).isEqualTo(e.crc32c());
                }
            }
            // a second round finds nothing to do
            assertThat(uploader.round(System.currentTimeMillis())).isTrue();
            assertThat(store.counters().archiveHoursUploaded()).isEqualTo(1);

            assertThat(store.cleanup(System.currentTimeMillis())).isEqualTo(1);
            assertThat(Files.exists(store.hourDirectory(hour))).isFalse();
            assertThat(store.counters().localHoursKeptUnarchived()).isZero();

            for (final Map.Entry<String, byte[]> e : written.entrySet())
            {
                final Lookup l = store.find(e.getKey());
                assertThat(l.status()).as(e.getKey()).isEqualTo(Lookup.Status.FOUND);
                assertThat(l.frame()).as(e.getKey()).isEqualTo(e.getValue());
            }
            assertThat(store.find("pay-0a000001-" + hour + "-999999").status()).isEqualTo(Lookup.Status.NOT_FOUND);
            assertThat(store.counters().archiveLookups()).isEqualTo(600);
            assertThat(store.counters().damage()).isZero();
            assertThat(store.counters().archiveReadErrors()).isZero();

            assertThat(store.hourFileNames(hour)).containsExactlyElementsOf(local.keySet());
            try (PositionalFile f = store.openHourFile(hour, "zz-p0.extra"))
            {
                assertThat(f.size()).isEqualTo(six.length);
                final ByteBuffer b = ByteBuffer.allocate(4);
                f.readFully(b, 8);
                assertThat(new String(b.array(), StandardCharsets.UTF_8)).isEqualTo("kind");
            }
            assertThat(store.hourFileNames(hour + 1)).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hdfs", "file"})
    void anHourWithoutItsManifestOrWithATornOneIsNotComplete(final String kind) throws Exception
    {
        final String uri = uri(kind);
        final long hour = nowHour() - 6;
        try (LogviewStore store = new LogviewStore(ArchiveFixtures.settings(dir, ArchiveFixtures.fast(uri)));
            LogviewArchive archive = new LogviewArchive(store);
            FileSystem fs = FileSystem.newInstance(URI.create(uri), new org.apache.hadoop.conf.Configuration()))
        {
            final Map<String, byte[]> written = ArchiveFixtures.writeHour(store.writer(0), hour, 90, 2);
            final ArchiveUploader uploader = new ArchiveUploader(store, archive, store.settings().archive());
            assertThat(uploader.round(System.currentTimeMillis())).isTrue();
            final org.apache.hadoop.fs.Path marker = new org.apache.hadoop.fs.Path(archive.hourPath(hour),
                Manifest.NAME);
            final byte[] whole;
            try (var in = fs.open(marker))
            {
                whole = in.readAllBytes();
            }
            try (FSDataOutputStream out = fs.create(marker, true))
            {
                out.write(whole, 0, whole.length - 8); // torn
            }
            try (LogviewArchive fresh = new LogviewArchive(store))
            {
                assertThat(fresh.files(hour)).isEmpty();
                fs.delete(marker, false);
                assertThat(fresh.files(hour)).isEmpty();
                assertThat(fresh.holdsWhole(hour, store.hourDirectory(hour))).isFalse();
                // the uploader (with no manifest cached) uploads the hour again, and it is complete again
                final ArchiveUploader again = new ArchiveUploader(store, fresh, store.settings().archive());
                assertThat(again.round(System.currentTimeMillis())).isTrue();
                assertThat(store.counters().archiveHoursUploaded()).isEqualTo(2);
                assertThat(fresh.holdsWhole(hour, store.hourDirectory(hour))).isTrue();
                assertThat(Manifest.parse(whole)).isEqualTo(fresh.manifest(hour));
            }
            assertThat(written).isNotEmpty();
        }
    }

    @Test
    void aLocalCopyThatChangedAfterItsUploadIsKeptAndUploadedAgain() throws Exception
    {
        final String uri = uri("hdfs");
        final long hour = nowHour() - 6;
        try (LogviewStore store = new LogviewStore(ArchiveFixtures.settings(dir, ArchiveFixtures.fast(uri)));
            LogviewArchive archive = new LogviewArchive(store))
        {
            ArchiveFixtures.writeHour(store.writer(0), hour, 90, 3);
            final ArchiveUploader uploader = new ArchiveUploader(store, archive, store.settings().archive());
            assertThat(uploader.round(System.currentTimeMillis())).isTrue();
            // a late file (or a late tree) after the upload: the archive no longer holds the hour whole
            Files.write(store.hourDirectory(hour).resolve("late-p0.extra"), new byte[] {1, 2, 3},
                StandardOpenOption.CREATE_NEW);
            assertThat(store.cleanup(System.currentTimeMillis())).isZero();
            assertThat(store.counters().localHoursKeptUnarchived()).isEqualTo(1);
            assertThat(uploader.round(System.currentTimeMillis())).isTrue();
            assertThat(store.counters().archiveHoursUploaded()).isEqualTo(2);
            // same length, other bytes: the checksum says no
            Files.write(store.hourDirectory(hour).resolve("late-p0.extra"), new byte[] {1, 2, 4});
            assertThat(archive.holdsWhole(hour, store.hourDirectory(hour))).isFalse();
            Files.write(store.hourDirectory(hour).resolve("late-p0.extra"), new byte[] {1, 2, 3});
            assertThat(store.cleanup(System.currentTimeMillis())).isEqualTo(1);
        }
    }

    @Test
    void unsettledAndLiveHoursWaitAndTheArchivesRetentionDeletesOldHours() throws Exception
    {
        final String uri = uri("hdfs");
        final long now = nowHour();
        try (LogviewStore store = new LogviewStore(ArchiveFixtures.settings(dir, ArchiveFixtures.fast(uri)));
            LogviewArchive archive = new LogviewArchive(store))
        {
            ArchiveFixtures.writeHour(store.writer(0), now - 1, 30, 4); // closed, but a late tree may still come
            final var w = store.writer(1);
            ArchiveFixtures.writeHour(w, now - 40 * 24, 30, 5); // older than the archive's 30 days
            final ArchiveUploader uploader = new ArchiveUploader(store, archive, store.settings().archive());
            assertThat(uploader.round(System.currentTimeMillis())).isTrue();
            assertThat(store.counters().archiveHoursUploaded()).isZero();
            // two hours later the first is settled and goes; one written 31 days ago is removed by the retention
            final long later = System.currentTimeMillis() + 2 * 3_600_000L;
            assertThat(uploader.round(later)).isTrue();
            assertThat(store.counters().archiveHoursUploaded()).isEqualTo(1);
            final List<String> names = new ArrayList<>(archive.files(now - 1));
            assertThat(names).contains("pay-p0.dat", "pay-p0.idx", "pay-p0.seg");

            // the archive's retention: an hour 31 days old in the archive is deleted
            final ArchiveUploader old = new ArchiveUploader(store, archive, store.settings().archive());
            final long inAMonth = System.currentTimeMillis() + 31L * 24 * 3_600_000L;
            assertThat(old.round(inAMonth)).isTrue();
            assertThat(store.counters().archiveHoursRemoved()).isEqualTo(1);
            try (LogviewArchive fresh = new LogviewArchive(store))
            {
                assertThat(fresh.files(now - 1)).isEmpty();
            }
        }
    }

    @Test
    void manifestsRoundTripAndRefuseDamage()
    {
        final Manifest m = new Manifest(498_699, Map.of("a-p0.dat", new Manifest.Entry("a-p0.dat", 10, 0xCAFEBABE)));
        assertThat(Manifest.parse(m.format())).isEqualTo(m);
        final byte[] b = m.format();
        assertThat(Manifest.parse(java.util.Arrays.copyOf(b, b.length - 1))).isNull();
        b[b.length - 3] = '7';
        assertThat(Manifest.parse(b)).isNull();
        assertThat(Manifest.parse("junk\n".getBytes(StandardCharsets.UTF_8))).isNull();
    }
}
