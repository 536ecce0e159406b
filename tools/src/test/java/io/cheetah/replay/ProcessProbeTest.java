package io.cheetah.replay;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessProbeTest
{
    @TempDir
    Path proc;

    @Test
    void readsCpuFromStatAndSumsContextSwitchesOverThreads() throws Exception
    {
        final Path p = Files.createDirectories(proc.resolve("4242"));
        // comm with spaces and a ')' to check parsing from the last ')'; utime 250, stime 50 ticks.
        Files.writeString(p.resolve("stat"), "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 " +
            "20 0 30 0 100 1000 100 18446744073709551615\n");
        for (final int tid : new int[] {4242, 4243})
        {
            final Path t = Files.createDirectories(p.resolve("task").resolve(Integer.toString(tid)));
            Files.writeString(t.resolve("status"), "Name:\tjava\nvoluntary_ctxt_switches:\t" + tid +
                "\nnonvoluntary_ctxt_switches:\t10\n");
        }
        final ProcessProbe probe = new ProcessProbe(proc, 4242);
        assertThat(probe.cpuSeconds()).isEqualTo(3.0);
        assertThat(probe.contextSwitches()).isEqualTo(4242 + 10 + 4243 + 10);
        assertThat(probe.threads()).isEqualTo(2);
        assertThat(new ProcessProbe(proc, 1).cpuSeconds()).isEqualTo(-1);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void findsTheProcessListeningOnAPort() throws Exception
    {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            assertThat(ProcessProbe.findListener(Paths.get("/proc"), s.getLocalPort()))
                .isEqualTo(ProcessHandle.current().pid());
            final ProcessProbe self = new ProcessProbe(ProcessHandle.current().pid());
            assertThat(self.cpuSeconds()).isPositive();
            assertThat(self.contextSwitches()).isPositive();
        }
    }
}
