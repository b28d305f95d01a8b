package io.slurmwise.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AtomicFileTest {

    static String host() throws IOException {
        return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip().replaceAll("[^A-Za-z0-9-]", "_");
    }

    static long deadPid() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    static long tmpFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".tmp")).count();
        }
    }

    @Test
    void replacesTheTargetAndLeavesNoTemporaryFile(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("state.json");
        Files.writeString(f, "old");
        AtomicFile.write(f, out -> out.write("new".getBytes(StandardCharsets.UTF_8)));
        assertThat(Files.readString(f)).isEqualTo("new");
        assertThat(tmpFiles(dir)).isZero();
    }

    @Test
    void aFailedWriteKeepsTheOldTargetAndLeavesNoTemporaryFile(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("state.json");
        Files.writeString(f, "old");
        assertThatThrownBy(() -> AtomicFile.write(f, out -> {
            out.write("half".getBytes(StandardCharsets.UTF_8));
            throw new IOException("disk full");
        })).hasMessage("disk full");
        assertThat(Files.readString(f)).isEqualTo("old");
        assertThat(tmpFiles(dir)).isZero();
    }

    @Test
    void leftoversOfDeadWritersOfThisHostGoOthersStay(@TempDir Path dir) throws IOException, InterruptedException {
        Path f = dir.resolve("watch-mock.json");
        String host = host();
        Path dead = dir.resolve(".watch-mock.json." + host + "." + deadPid() + ".a1.tmp");
        Path alive = dir.resolve(".watch-mock.json." + host + "." + ProcessHandle.current().parent()
                .map(ProcessHandle::pid).orElse(1L) + ".b2.tmp");
        Path otherHost = dir.resolve(".watch-mock.json.node-elsewhere-7.12345.c3.tmp");
        Path otherFile = dir.resolve(".index-x.bin." + host + "." + deadPid() + ".d4.tmp");
        for (Path p : new Path[] {dead, alive, otherHost, otherFile}) {
            Files.writeString(p, "half");
        }
        AtomicFile.write(f, out -> out.write('1'));
        assertThat(dead).doesNotExist();
        assertThat(alive).exists();       // a writer still running
        assertThat(otherHost).exists();   // another node's writer, on a shared home: not ours to judge
        assertThat(otherFile).exists();   // another target's: swept by its own next write
        assertThat(Files.readString(f)).isEqualTo("1");
    }
}
