package io.slurmwise.backend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Logs that are not regular files, and reads that stall: a FIFO with a writer is read to its end (the tail the
 * same bytes in a file give), a FIFO nobody writes to or one that stalls is given up with a line that says so,
 * and a stream far larger than the tail bound keeps only its tail.
 */
class LogTailsStreamTest {

    /** Guards against a hang; no speed is claimed (the timings live in scripts/bench/hostile-logs.sh). */
    private static final Duration NEVER_HANG = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static String log(int lines) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= lines; i++) {
            sb.append("step ").append(i).append(" loss 0.").append(i % 97).append('\n');
        }
        return sb.append("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n").toString();
    }

    private Path fifo(String name) throws Exception {
        Path p = dir.resolve(name);
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assertThat(mk.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(mk.exitValue()).isZero();
        return p;
    }

    /** Opens the FIFO for writing (which frees a reader parked in open) and closes it: the reader sees its end. */
    private static void release(Path fifo) {
        Thread t = new Thread(() -> {
            try (OutputStream o = Files.newOutputStream(fifo, java.nio.file.StandardOpenOption.WRITE)) {
                o.flush();
            } catch (IOException ignored) {
                // nobody was reading: nothing to free
            }
        });
        t.setDaemon(true);
        t.start();
        // done before the temporary folder is removed (WRITE alone never creates a file in its place)
        join(t);
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aFifoWithAWriterIsReadToItsEndAsTheSameFileWouldBe() throws Exception {
        String text = log(5000);
        Path file = Files.writeString(dir.resolve("same.err"), text, StandardCharsets.UTF_8);
        Path fifo = fifo("p.err");
        Thread writer = new Thread(() -> {
            try (OutputStream o = Files.newOutputStream(fifo)) {
                o.write(text.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.start();
        LogTail t = assertTimeoutPreemptively(NEVER_HANG,
                () -> LogTails.read(fifo, LogStream.STDERR, 300, LogTails.MAX_TAIL_BYTES, Duration.ofSeconds(20)));
        writer.join();
        LogTail same = LogTails.read(file, LogStream.STDERR, 300);
        assertThat(t.problem()).isNull();
        assertThat(t.lines()).hasSize(300).isEqualTo(same.lines());
        assertThat(t.lines().get(299)).startsWith("torch.OutOfMemoryError");
        assertThat(t.fileSize()).isEqualTo(same.fileSize());
        assertThat(t.firstLine()).isZero();
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aFifoNobodyWritesToIsGivenUpWithALine() throws Exception {
        Path fifo = fifo("silent.err");
        try {
            LogTail t = assertTimeoutPreemptively(NEVER_HANG,
                    () -> LogTails.read(fifo, LogStream.STDERR, 300, LogTails.MAX_TAIL_BYTES, Duration.ofMillis(300)));
            assertThat(t.isEmpty()).isTrue();
            assertThat(t.problem()).contains(fifo.toString()).contains("gave nothing for 300 ms")
                    .contains("a pipe nobody writes to").contains("SLURMWISE_LOG_TIMEOUT");
        } finally {
            release(fifo);
        }
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aStreamThatStallsIsClassifiedOnWhatItGave() throws Exception {
        Path fifo = fifo("stall.err");
        CountDownLatch done = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            try (OutputStream o = Files.newOutputStream(fifo)) {
                o.write("epoch 1\nRuntimeError: NCCL error: unhandled system error\n".getBytes(StandardCharsets.UTF_8));
                o.flush();
                done.await(); // a stalled writer: the pipe stays open, nothing more comes
            } catch (IOException | InterruptedException ignored) {
                // the reader gave up and the test ended
            }
        });
        writer.setDaemon(true);
        writer.start();
        try {
            LogTail t = assertTimeoutPreemptively(NEVER_HANG,
                    () -> LogTails.read(fifo, LogStream.STDERR, 300, LogTails.MAX_TAIL_BYTES, Duration.ofMillis(500)));
            assertThat(t.lines()).containsExactly("epoch 1", "RuntimeError: NCCL error: unhandled system error");
            assertThat(t.problem()).contains("gave no more data for 500 ms");
        } finally {
            done.countDown();
        }
    }

    @Test
    void aStreamFarLargerThanTheBoundKeepsTheTailAFileWould() throws IOException {
        // 39 MB of lines with an ending the classifier needs, through a ring of 4 MB
        byte[] line = "progress 42% [#####.....] eta 00:01:00\n".getBytes(StandardCharsets.UTF_8);
        byte[] end = "Killed\n".getBytes(StandardCharsets.UTF_8);
        long total = (long) line.length * 1_000_000;
        InputStream in = new InputStream() {
            long sent;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (sent >= total + end.length) {
                    return -1;
                }
                int n = 0;
                while (n < len && sent < total + end.length) {
                    b[off + n++] = sent < total ? line[(int) (sent % line.length)] : end[(int) (sent - total)];
                    sent++;
                }
                return n;
            }
        };
        LogTail t = LogTails.ofStream(LogStream.STDERR, "<stdin>", in, 300);
        assertThat(t.lines()).hasSize(300);
        assertThat(t.lines().get(299)).isEqualTo("Killed");
        assertThat(t.fileSize()).isEqualTo(total + end.length);
        assertThat(t.firstLine()).isZero();
        assertThat(t.content().length).isLessThanOrEqualTo(LogTails.MAX_TAIL_BYTES);
    }

    @Test
    void theRingGivesTheSameTailAsTheBytesInMemoryWhateverTheChunking() throws IOException {
        Random r = new Random(16);
        for (int round = 0; round < 200; round++) {
            byte[] all = new byte[r.nextInt(3000)];
            for (int i = 0; i < all.length; i++) {
                all[i] = r.nextInt(8) == 0 ? (byte) '\n' : (byte) ('a' + r.nextInt(26));
            }
            int max = 1 + r.nextInt(700);
            TailBuffer ring = new TailBuffer(max);
            for (int i = 0; i < all.length; ) {
                int n = Math.min(all.length - i, r.nextInt(900));
                ring.append(all, i, n);
                i += n;
            }
            byte[] expected = java.util.Arrays.copyOfRange(all, Math.max(0, all.length - max), all.length);
            assertThat(ring.bytes()).as("round " + round).isEqualTo(expected);
            assertThat(ring.total()).isEqualTo(all.length);
            int lines = 1 + r.nextInt(40);
            assertThat(LogTails.ofStream(LogStream.STDOUT, "x", new ByteArrayInputStream(all), lines).lines())
                    .isEqualTo(LogTails.ofBytes(LogStream.STDOUT, "x", all, lines).lines());
        }
    }

    private static void join(Thread t) {
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A job's log that is a device or a pipe is not read at all (an outside audit of the MCP server: a job whose
     * StdOut was /dev/zero kept a core busy for minutes after its call was stopped, and each call on a FIFO nobody
     * writes to left a thread blocked in open for good); a log that does not exist is said so, never read unchecked.
     */
    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aJobsLogIsReadOnlyFromARegularFileOfItsUser(@TempDir Path dir) throws Exception {
        String me = System.getProperty("user.name");
        LogTail zero = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> LogTails.readOwnedBy(Path.of("/dev/zero"), LogStream.STDOUT, 10, "root"));
        assertThat(zero.problem()).contains("not a regular file").contains("device, pipe or socket");
        assertThat(zero.content()).isEmpty();
        assertThat(LogTails.readOwnedBy(Path.of("/dev/null"), LogStream.STDOUT, 10, "root").problem())
                .contains("the job's output was discarded");
        Path fifo = dir.resolve("job.out");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
        LogTail pipe = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> LogTails.readOwnedBy(fifo, LogStream.STDOUT, 10, me));
        assertThat(pipe.problem()).contains("not a regular file");
        assertThat(LogTails.readOwnedBy(dir.resolve("gone.out"), LogStream.STDERR, 10, me).problem())
                .contains("does not exist");
        assertThat(LogTails.readOwnedBy(dir, LogStream.STDERR, 10, me).problem()).contains("is a directory");
        Path log = Files.writeString(dir.resolve("job.err"), "line 1\nCUDA out of memory\n");
        assertThat(LogTails.readOwnedBy(log, LogStream.STDERR, 10, me).lines()).containsExactly("line 1",
                "CUDA out of memory");
    }
}
