package io.slurmwise.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * State that survives a kill: {@code watch --once} and {@code kb build} (real CLI processes on the mock cluster, each
 * with its own SLURMWISE_HOME) are killed with SIGKILL at random points, {@code slurmwise.kill.rounds} times each
 * (2 in every build, 50 with -Pfuzz). The next run must not crash, must not lose a failure (watch is at least once:
 * every failed job of the mock is reported by the killed run's complete lines or the next run's), and must leave a
 * state or index that a third run (every tenth round, and after any report) reads without complaint.
 */
@Tag("fuzz")
class KillSurvivalTest {

    static final int ROUNDS = Integer.getInteger("slurmwise.kill.rounds", 2);
    static final ObjectMapper M = new ObjectMapper();

    record Run(int code, String out, String err, boolean killed) {
    }

    /** Runs the CLI in its own JVM; kills it with SIGKILL after {@code killAfterMillis} (never when negative). */
    static Run cli(Path home, long killAfterMillis, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(Map.of("SLURMWISE_BACKEND", "mock", "SLURMWISE_HOME", home.toString(),
                "SLURMWISE_NO_LLM", "1", "SLURMWISE_EMBEDDINGS", "hash"));
        // the embedded index is what these runs kill and check: not a Chroma server CI may have started
        pb.environment().remove("SLURMWISE_CHROMA_URL");
        Path out = Files.createTempFile(home.getParent(), "out", ".txt");
        Path err = Files.createTempFile(home.getParent(), "err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        boolean killed = false;
        if (killAfterMillis >= 0 && !p.waitFor(killAfterMillis, TimeUnit.MILLISECONDS)) {
            p.destroyForcibly(); // SIGKILL on Unix
            killed = true;
        }
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the CLI ends").isTrue();
        Run r = new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), killed);
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    /** Job ids of the complete JSON lines of a watch run's output (a killed run may end in half a line). */
    static Set<String> reported(String out) {
        Set<String> ids = new HashSet<>();
        String complete = out.endsWith("\n") ? out : out.substring(0, out.lastIndexOf('\n') + 1);
        for (String line : complete.split("\n")) {
            if (!line.isBlank()) {
                try {
                    ids.add(M.readTree(line).get("job_id").asText());
                } catch (IOException e) {
                    throw new AssertionError("a complete output line that is not JSON: " + line, e);
                }
            }
        }
        return ids;
    }

    @Test
    void watchKilledAtRandomPointsLosesNoFailure(@TempDir Path dir) throws Exception {
        Set<String> failed = WatchCliTest.failedJobs();
        Random random = new Random(Long.getLong("slurmwise.fuzz.seed", System.nanoTime()));
        // how long a whole run takes here: kills land anywhere from JVM start to the state write
        Path first = Files.createDirectories(dir.resolve("whole"));
        long t0 = System.nanoTime();
        Run whole = cli(first, -1, "watch", "--once", "--json");
        long wholeMillis = (System.nanoTime() - t0) / 1_000_000;
        assertThat(whole.code()).as(whole.err()).isZero();
        assertThat(reported(whole.out())).isEqualTo(failed);
        int killedMidway = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Path home = Files.createDirectories(dir.resolve("round-" + round));
            Set<String> seen = new HashSet<>();
            // up to three kills in a row before the run that finishes
            for (int k = random.nextInt(3); k >= 0; k--) {
                // the first whole run also built the knowledge index: later runs are quicker, so kill within 90%
                Run killed = cli(home, (long) (random.nextDouble() * wholeMillis * 0.9), "watch", "--once", "--json");
                killedMidway += killed.killed() ? 1 : 0;
                seen.addAll(reported(killed.out()));
            }
            Run next = cli(home, -1, "watch", "--once", "--json");
            assertThat(next.code()).as("round %d: %s", round, next.err()).isZero();
            assertThat(StderrText.messages(next.err())).as("round %d: at most one message: %s", round, next.err())
                    .hasSizeLessThanOrEqualTo(1);
            seen.addAll(reported(next.out()));
            assertThat(seen).as("round %d: every failure reported at least once", round).isEqualTo(failed);
            assertThat(leftovers(home)).as("round %d: half-written files of killed runs are removed", round).isEmpty();
            if (round % 10 == 0 || !next.err().isBlank()) { // a third run (after a report, and now and then)
                Run third = cli(home, -1, "watch", "--once", "--json");
                assertThat(third.code()).isZero();
                assertThat(third.err()).as("round %d: nothing more to report", round).isBlank();
                assertThat(third.out()).isBlank();
            }
        }
        System.out.printf("kill: watch --once killed %d times in %d rounds (a whole run %d ms); no failure lost%n",
                killedMidway, ROUNDS, wholeMillis);
        if (ROUNDS >= 10) {
            assertThat(killedMidway).as("kills land before the run ends").isPositive();
        }
    }

    @Test
    void kbBuildKilledAtRandomPointsLeavesAnIndexTheNextRunReadsOrRebuilds(@TempDir Path dir) throws Exception {
        Random random = new Random(Long.getLong("slurmwise.fuzz.seed", System.nanoTime()));
        Path first = Files.createDirectories(dir.resolve("whole"));
        long t0 = System.nanoTime();
        Run whole = cli(first, -1, "kb", "build", "--json");
        long wholeMillis = (System.nanoTime() - t0) / 1_000_000;
        assertThat(whole.code()).as(whole.err()).isZero();
        String expected = search(first);
        int killedMidway = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Path home = Files.createDirectories(dir.resolve("round-" + round));
            if (random.nextBoolean()) {
                // a current index the killed build would replace
                assertThat(cli(home, -1, "kb", "build", "--json").code()).isZero();
            }
            Run killed = cli(home, (long) (random.nextDouble() * wholeMillis * 0.9), "kb", "build", "--json");
            killedMidway += killed.killed() ? 1 : 0;
            // the next run that needs the index reads it or builds it, and finds what a whole build finds
            assertThat(search(home)).as("round %d", round).isEqualTo(expected);
            assertThat(leftovers(home)).as("round %d: half-written indexes of killed builds are removed", round)
                    .isEmpty();
            if (round % 10 == 0) {
                Run again = cli(home, -1, "kb", "search", "out of memory", "--json");
                assertThat(again.err()).as("round %d: nothing to say the second time", round).isBlank();
            }
        }
        System.out.printf("kill: kb build killed %d times in %d rounds (a whole build %d ms); index always usable%n",
                killedMidway, ROUNDS, wholeMillis);
        if (ROUNDS >= 10) {
            assertThat(killedMidway).isPositive();
        }
    }

    /** A corrupt or cut index is said once, in one line, and rebuilt; the next run is silent. */
    @Test
    void aDamagedIndexIsReportedOnceAndRebuilt(@TempDir Path dir) throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        assertThat(cli(home, -1, "kb", "build", "--json").code()).isZero();
        String expected = search(home);
        Path index;
        try (Stream<Path> s = Files.list(home.resolve("kb"))) {
            index = s.filter(p -> p.getFileName().toString().startsWith("index-")).findFirst().orElseThrow();
        }
        byte[] whole = Files.readAllBytes(index);
        byte[] flipped = whole.clone();
        flipped[flipped.length / 2] ^= 0x40;
        for (byte[] damaged : List.of(java.util.Arrays.copyOf(whole, whole.length / 2), flipped,
                java.util.Arrays.copyOf(whole, whole.length - 1))) {
            Files.write(index, damaged);
            Run r = cli(home, -1, "kb", "search", "out of memory", "--json");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(StderrText.messages(r.err())).singleElement().asString()
                    .contains("could not be read").contains("rebuilding it");
            assertThat(node(r.out())).isEqualTo(M.readTree(expected));
            Run next = cli(home, -1, "kb", "search", "out of memory", "--json");
            assertThat(next.err()).as("reported once").isBlank();
        }
    }

    /** Temporary files under the home: every writer has ended, so any left is a killed run's litter. */
    private static List<Path> leftovers(Path home) throws IOException {
        try (Stream<Path> s = Files.walk(home)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
        }
    }

    private static String search(Path home) throws Exception {
        Run r = cli(home, -1, "kb", "search", "out of memory", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        return node(r.out()).toString();
    }

    private static JsonNode node(String out) throws IOException {
        JsonNode n = M.readTree(out);
        if (n instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
            o.remove("took_ms"); // timings differ run to run
            o.remove("index");
        }
        return n;
    }
}
