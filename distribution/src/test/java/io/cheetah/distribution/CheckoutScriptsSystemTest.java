package io.cheetah.distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checkout's {@code scripts/} as a new user meets them: in a copy of the working tree without any build output
 * (what a fresh clone holds) and with nothing of Cheetah's in the local Maven repository, {@code scripts/replay},
 * {@code scripts/cat-decode} and {@code scripts/thread-cpu} build what they need and run. (They once resolved
 * cat-wire's test-jar from the local repository, which only an earlier {@code mvn install} had put there.)
 */
class CheckoutScriptsSystemTest
{
    private static final Path ROOT = Path.of(System.getProperty("cheetah.projectRoot", "..")).toAbsolutePath().normalize();

    @Test
    void scriptsRunFromAFreshCopyOfTheCheckout(@TempDir final Path tmp) throws Exception
    {
        final Path clone = freshCopy(tmp.resolve("clone"));
        assertThat(clone.resolve("tools/target")).doesNotExist();

        final ReleaseInstall.Result help = ReleaseInstall.run(clone, List.of("scripts/replay", "--help"), 600);
        assertThat(help.exit()).as(help.output()).isZero();
        assertThat(help.output()).contains("--find-capacity", "--report-dir");
        // the classpath names the copy's own classes, never an installed Cheetah jar
        final String classpath = Files.readString(clone.resolve("tools/target/tools.classpath"));
        assertThat(classpath).contains(clone.resolve("cat-wire/target/classes").toString()).doesNotContain("/io/cheetah/");

        final ReleaseInstall.Result decoded = ReleaseInstall.run(clone, List.of("scripts/cat-decode",
            "cat-wire/src/test/resources/vectors/cat-java-3.1.0/basic.frames"), 300);
        assertThat(decoded.exit()).as(decoded.output()).isZero();
        // basic.totals.json: 35 NT1 trees, no errors
        assertThat(decoded.output().lines().filter(l -> l.startsWith("{\"codec\":\"NT1\"")).count()).isEqualTo(35);
        assertThat(decoded.output()).doesNotContain("\"error\"");

        final ReleaseInstall.Result bench = ReleaseInstall.run(clone, List.of("scripts/bench", "--help"), 60);
        assertThat(bench.exit()).as(bench.output()).isZero();
        assertThat(bench.output()).contains("--capacity");

        // scripts/thread-cpu starts scripts/cat-server and sends std-mix with scripts/replay; the server jar is the
        // one this build made (building the 170 MB shaded jar again in the copy would only repeat mvn package)
        final Path jar = ROOT.resolve("cat-server/target/cheetah-server.jar");
        assertThat(jar).isRegularFile();
        final ProcessBuilder threadCpu = ReleaseInstall.builder(clone, List.of("scripts/thread-cpu", "3000",
            "--duration", "12")).redirectOutput(tmp.resolve("thread-cpu.txt").toFile());
        threadCpu.environment().put("CHEETAH_JAR", jar.toString());
        final Process process = threadCpu.start();
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("thread-cpu ends").isTrue();
        final String cpu = Files.readString(tmp.resolve("thread-cpu.txt"));
        assertThat(process.exitValue()).as(cpu).isZero();
        assertThat(cpu).contains("server threads at 3000 std trees/s offered").containsPattern("(?m)^TOTAL +[0-9.]+ %");
    }

    /** The working tree's tracked and new files (as git lists them, so without build output), copied. */
    private static Path freshCopy(final Path dir) throws Exception
    {
        final ReleaseInstall.Result files = ReleaseInstall.run(ROOT, List.of("git", "ls-files", "--cached", "--others",
            "--exclude-standard"), 60);
        assertThat(files.exit()).as(files.output()).isZero();
        for (final String file : files.output().lines().toList())
        {
            final Path from = ROOT.resolve(file);
            if (Files.isRegularFile(from))
            {
                final Path to = dir.resolve(file);
                Files.createDirectories(to.getParent());
                Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return dir;
    }
}
