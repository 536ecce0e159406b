package io.cheetah.server;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.cheetah.server.fixtures.Trees;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real entry point in its own process: starts on ephemeral ports (on G1, which it warns about), takes a tree,
 * and on SIGTERM stops accepting, drains, checkpoints and exits 0. A bad configuration key exits 2 naming the key.
 */
@Tag("fault")
class ShutdownSystemTest
{
    private static Process start(final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(
            System.getProperty("java.home") + File.separator + "bin" + File.separator + "java", "-Xmx256m",
            "-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    @Test
    void sigtermShutsDownGracefullyWithExitCodeZero() throws Exception
    {
        final Process p = start("--set", "tcp.host=127.0.0.1", "--set", "tcp.port=0", "--set", "http.host=127.0.0.1",
            "--set", "http.port=0", "--set", "pipeline.ringSize=1024", "--set", "storage.enabled=false",
            "--set", "storage.dataDir=target/shutdown-test");
        final BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8));
        final Pattern ports = Pattern.compile("cheetah: tcp port (\\d+), http port (\\d+)");
        final StringBuilder log = new StringBuilder();
        int tcpPort = -1;
        String line;
        while (tcpPort < 0 && (line = out.readLine()) != null)
        {
            log.append(line).append('\n');
            final Matcher m = ports.matcher(line);
            if (m.find())
            {
                tcpPort = Integer.parseInt(m.group(1));
            }
        }
        assertThat(tcpPort).as(log.toString()).isPositive();
        try (Socket s = new Socket("127.0.0.1", tcpPort))
        {
            final OutputStream o = s.getOutputStream();
            o.write(Trees.frame("app", System.currentTimeMillis()));
            o.flush();
        }
        final Thread reader = new Thread(() ->
        {
            try
            {
                String rest;
                while ((rest = out.readLine()) != null)
                {
                    synchronized (log)
                    {
                        log.append(rest).append('\n');
                    }
                }
            }
            catch (final java.io.IOException e)
            {
                // the process ended
            }
        });
        reader.start();
        // SIGTERM, as an init system sends it (Process.destroy would also close our end of its output)
        assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor()).isZero();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        reader.join(5000);
        assertThat(p.exitValue()).as(log.toString()).isZero();
        assertThat(log.toString()).contains("cheetah stopped");
        // started without scripts/cat-server's collector: it says so, and what to pass instead
        assertThat(log.toString()).contains("cheetah: warning: running on G1").contains("--print-java-opts");
    }

    @Test
    void aBadKeyStopsStartUpNamingIt() throws Exception
    {
        final Process p = start("--set", "tcp.prot=1");
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(output).contains("tcp.prot: unknown configuration key");
    }
}
