package io.cheetah.distribution;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The release archive unpacked into a directory outside the checkout, as an operator installs it; the release
 * system tests start its {@code bin/} programs from there with nothing of the checkout on their path.
 *
 * @param home the unpacked {@code cheetah-VERSION/} directory.
 */
record ReleaseInstall(Path home)
{
    /**
     * Unpacks the archive the build made (system property {@code cheetah.release}) into {@code dir}.
     *
     * @param dir an empty directory outside the checkout.
     * @return the installation.
     * @throws Exception when tar fails.
     */
    static ReleaseInstall unpack(final Path dir) throws Exception
    {
        final Path archive = Path.of(System.getProperty("cheetah.release", "target/cheetah.tar.gz"));
        assertThat(archive).as("the release archive (mvn package builds it)").isRegularFile();
        final Path checkout = Path.of(System.getProperty("cheetah.projectRoot", "..")).toAbsolutePath().normalize();
        assertThat(dir.toAbsolutePath().normalize().startsWith(checkout)).as("installed outside the checkout").isFalse();
        java.nio.file.Files.createDirectories(dir);
        final Result tar = run(dir, List.of("tar", "xzf", archive.toAbsolutePath().toString()), 120);
        assertThat(tar.exit()).as(tar.output()).isZero();
        return new ReleaseInstall(dir.resolve(System.getProperty("cheetah.releaseName", "cheetah")));
    }

    /**
     * @param relative a path inside the installation.
     * @return it.
     */
    Path path(final String relative)
    {
        return home.resolve(relative);
    }

    /**
     * Runs a program to its end.
     *
     * @param workDir        its working directory.
     * @param command        the program and its arguments.
     * @param timeoutSeconds how long it may take.
     * @return its exit code and output (stdout and stderr together).
     * @throws Exception when it cannot start or outlives the timeout.
     */
    static Result run(final Path workDir, final List<String> command, final long timeoutSeconds) throws Exception
    {
        final Path log = Files.createTempFile("cheetah-run", ".log");
        final Process process = builder(workDir, command).redirectOutput(log.toFile()).start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor();
            throw new AssertionError(command + " ran longer than " + timeoutSeconds + " s:\n" + Files.readString(log));
        }
        final String output = Files.readString(log);
        Files.delete(log);
        return new Result(process.exitValue(), output);
    }

    /**
     * A process builder with the release's own environment: none of the variables by which the checkout's scripts
     * are pointed elsewhere (another jar, other JVM options).
     *
     * @param workDir its working directory.
     * @param command the program and its arguments.
     * @return the builder, stderr merged into stdout.
     */
    static ProcessBuilder builder(final Path workDir, final List<String> command)
    {
        final ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(workDir.toFile())
            .redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("CHEETAH_") || k.startsWith("REPLAY_") ||
            k.startsWith("MAVEN_"));
        return builder;
    }

    /**
     * Stops a process the tests started: SIGTERM, then SIGKILL if it outlives the grace period.
     *
     * @param process        the process.
     * @param graceSeconds   how long it may take to stop by itself.
     */
    static void stop(final Process process, final long graceSeconds)
    {
        try
        {
            if (process.isAlive())
            {
                process.destroy();
                if (!process.waitFor(graceSeconds, TimeUnit.SECONDS))
                {
                    process.destroyForcibly().waitFor();
                }
            }
        }
        catch (final InterruptedException e)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * @param exit   the exit code.
     * @param output what it printed.
     */
    record Result(int exit, String output)
    {
    }
}
