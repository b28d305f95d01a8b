package io.slurmwise.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.cli.CliTest.Result;
import io.slurmwise.cli.context.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * classify on inputs that used to hang or exhaust: a FIFO ({@code classify <(cmd)}) is read, a FIFO nobody writes
 * to is given up with one line, and 2.5 GB on standard input is classified under a 256 MB heap.
 */
class ClassifyInputsTest {

    private static final Duration NEVER_HANG = Duration.ofMinutes(5);
    private static final String ENDING = "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=42.batch. Some of"
            + " your processes may have been killed by the cgroup out-of-memory handler.\n";

    @TempDir
    Path dir;

    private Path fifo(String name) throws Exception {
        Path p = dir.resolve(name);
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assertThat(mk.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return p;
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aFifoIsClassifiedAsTheSameFileIs() throws Exception {
        String text = "epoch 1\n".repeat(1000) + ENDING;
        Path fifo = fifo("job.err");
        Thread writer = new Thread(() -> {
            try (OutputStream o = Files.newOutputStream(fifo)) {
                o.write(text.getBytes(StandardCharsets.UTF_8));
            } catch (IOException ignored) {
                // the test fails on the reader's side
            }
        });
        writer.start();
        Result r = assertTimeoutPreemptively(NEVER_HANG, () -> CliTest.run("classify", fifo.toString(), "--rules-only", "--json"));
        writer.join();
        Path file = Files.writeString(dir.resolve("same.err"), text);
        Result same = CliTest.run("classify", file.toString(), "--rules-only", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.json().path("finding").path("kind").asText()).isEqualTo("oom")
                .isEqualTo(same.json().path("finding").path("kind").asText());
        assertThat(r.json().path("finding").path("confidence")).isEqualTo(same.json().path("finding").path("confidence"));
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aFifoNobodyWritesToEndsWithOneLine() throws Exception {
        Path fifo = fifo("silent.err");
        try {
            Result r = assertTimeoutPreemptively(NEVER_HANG, () -> CliTest.run(Map.of("SLURMWISE_LOG_TIMEOUT", "0.3"),
                    false, "classify", fifo.toString(), "--rules-only"));
            assertThat(r.code()).isEqualTo(ExitCodes.INPUT);
            assertThat(r.out()).isEmpty();
            assertThat(StderrText.messages(r.err())).hasSize(1);
            assertThat(StderrText.text(r.err())).startsWith("slurmwise: " + fifo + " gave nothing for 300 ms")
                    .contains("SLURMWISE_LOG_TIMEOUT").doesNotContain("Exception").doesNotContain("\tat ");
        } finally {
            // free the reader still parked in open(2)
            Thread t = new Thread(() -> {
                try (OutputStream o = Files.newOutputStream(fifo, java.nio.file.StandardOpenOption.WRITE)) {
                    o.flush();
                } catch (IOException ignored) {
                    // nobody left to free
                }
            });
            t.setDaemon(true);
            t.start();
            // done before the temporary folder is removed (WRITE alone never creates a file in its place)
            join(t);
        }
    }

    @Test
    void aBadTimeoutIsAConfigurationError() {
        Result r = CliTest.run(Map.of("SLURMWISE_LOG_TIMEOUT", "soon"), false, "classify", "x.err");
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("SLURMWISE_LOG_TIMEOUT must be a number of seconds");
    }

    /** 2.5 GB of log lines piped into {@code classify -} in a JVM capped at 256 MB, generated as it is written. */
    @Test
    void gigabytesOnStandardInputAreClassifiedUnderASmallHeap() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "classify", "-", "--rules-only", "--json"));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("SLURMWISE_HOME", dir.resolve("home").toString());
        pb.environment().put("SLURMWISE_NO_LLM", "1");
        pb.redirectOutput(dir.resolve("out.json").toFile()).redirectError(dir.resolve("err.txt").toFile());
        Process p = pb.start();
        byte[] line = "step 1234 loss 0.4321 lr 3e-4 tokens/s 51234 [##########..........] 50%\n"
                .getBytes(StandardCharsets.UTF_8);
        byte[] chunk = new byte[line.length * 16384]; // ~1.2 MB of whole lines
        for (int i = 0; i < chunk.length; i += line.length) {
            System.arraycopy(line, 0, chunk, i, line.length);
        }
        long target = 2_500_000_000L;
        long written = 0;
        assertTimeoutPreemptively(NEVER_HANG, () -> {
            try (OutputStream in = p.getOutputStream()) {
                long w = 0;
                while (w < target) {
                    in.write(chunk);
                    w += chunk.length;
                }
                in.write(ENDING.getBytes(StandardCharsets.UTF_8));
            }
            assertThat(p.waitFor(3, TimeUnit.MINUTES)).isTrue();
        });
        String err = Files.readString(dir.resolve("err.txt"));
        assertThat(p.exitValue()).as(err).isZero();
        assertThat(err).doesNotContain("OutOfMemoryError").doesNotContain("Exception");
        JsonNode json = new ObjectMapper().readTree(dir.resolve("out.json").toFile());
        // the same answer as the end of the stream in a file gives
        Path file = Files.writeString(dir.resolve("tail.err"), new String(line, StandardCharsets.UTF_8).repeat(400) + ENDING);
        JsonNode same = CliTest.run("classify", file.toString(), "--rules-only", "--json").json();
        assertThat(json.path("finding").path("kind").asText()).isEqualTo("oom")
                .isEqualTo(same.path("finding").path("kind").asText());
        assertThat(json.path("finding").path("confidence")).isEqualTo(same.path("finding").path("confidence"));
        assertThat(json.path("finding").path("evidence").findValuesAsText("text"))
                .isEqualTo(same.path("finding").path("evidence").findValuesAsText("text"));
    }

    private static void join(Thread t) {
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
