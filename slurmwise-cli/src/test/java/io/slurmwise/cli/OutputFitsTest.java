package io.slurmwise.cli;

import io.slurmwise.cli.context.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.slurmwise.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

/** Every command fits the terminal's width, and the small things a new user meets first. */
class OutputFitsTest {

    private static final List<List<String>> COMMANDS = List.of(
            List.of("diagnose", "1001"), List.of("diagnose", "22542799"), List.of("diagnose", "1008"),
            List.of("diagnose", "1053"), List.of("diagnose", "1055"), List.of("diagnose", "22542799", "--full"),
            List.of("diagnose", "1008", "--full"), List.of("jobs"), List.of("jobs", "--state", "FAILED"),
            List.of("stats"), List.of("watch", "--once"), List.of("kb", "list"), List.of("kb", "search", "oom-kill event"),
            List.of("kb", "show", "time_limit"), List.of("doctor"), List.of("--help"),
            List.of("diagnose", "--help"), List.of("stats", "--help"));

    @ParameterizedTest(name = "COLUMNS={0}")
    @ValueSource(ints = {80, 100, 120})
    void noCommandPrintsALineWiderThanColumns(int columns, @TempDir Path home) throws IOException {
        Path log = home.resolve("job.err");
        Files.writeString(log, "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=5.batch. Some of your processes"
                + " may have been killed by the cgroup out-of-memory handler.\n");
        List<List<String>> all = new java.util.ArrayList<>(COMMANDS);
        all.add(List.of("classify", log.toString()));
        if (columns == 80) {
            all.add(List.of("eval")); // the slowest: at the narrowest width only
        }
        for (List<String> args : all) {
            Map<String, String> env = new HashMap<>(Map.of("COLUMNS", String.valueOf(columns)));
            if (args.get(0).equals("watch")) {
                env.put("SLURMWISE_HOME", home.resolve("watch").toString()); // its own state: every failure is new
            }
            CliTest.Result r = run(env, false, args.toArray(String[]::new));
            assertThat(r.out()).as(args.toString()).isNotBlank();
            for (String line : r.out().lines().toList()) {
                assertThat(line.codePointCount(0, line.length())).as(args + " at " + columns + ":\n" + line)
                        .isLessThanOrEqualTo(columns);
            }
        }
    }

    /** Piped with no COLUMNS (to less, a file, a ticket) the answer fits the classic 80 columns (an audit saw 98). */
    @Test
    void pipedWithoutColumnsFitsEightyColumns() {
        for (String job : List.of("1001", "1022", "1055")) {
            CliTest.Result r = run(Map.of("COLUMNS", ""), false, "diagnose", job);
            assertThat(r.out()).isNotBlank();
            for (String line : r.out().lines().toList()) {
                assertThat(line.codePointCount(0, line.length())).as(job + ":\n" + line).isLessThanOrEqualTo(80);
            }
        }
    }

    /**
     * The fixes' heading keeps its command whole on one line at 80 columns: a long kind id (resources_unavailable) is
     * said once, in the command, instead of wrapping "slurmwise kb show" away from it.
     */
    @Test
    void theFixesHeadingKeepsItsCommandWhole() {
        String out = run(Map.of("COLUMNS", "80"), false, "diagnose", "1034").out();
        assertThat(out).contains("│ Fixes (all of them: slurmwise kb show resources_unavailable)\n");
        assertThat(run(Map.of("COLUMNS", "80"), false, "diagnose", "1001").out())
                .contains("│ Fixes (oom; all of them: slurmwise kb show oom)\n");
    }

    /** A message every rank or worker printed is one evidence line with its count, leaving room for the next. */
    @Test
    void aRepeatedEvidenceLineIsShownOnceWithItsCount() {
        String lmp = run(Map.of("COLUMNS", "80"), false, "diagnose", "1009").out();
        assertThat(lmp).as("128 alike lines, six kept: at least six").contains("stderr:1 ×6+ ").doesNotContain("stderr:2 ");
        String shm = run(Map.of("COLUMNS", "80"), false, "diagnose", "1023").out();
        assertThat(shm).contains("stderr:2 ×3").doesNotContain("stderr:4 ");
    }

    /**
     * A job that never started shows what it asked for, in the user's own units: 1034's 32 CPUs and 2000G (its ReqTRES;
     * an outside audit saw no request at all, then "1.95T" for the 2000G the script asked).
     */
    @Test
    void aJobThatNeverStartedShowsItsRequestInTheUnitsItAskedIn() {
        String out = run(Map.of("COLUMNS", "120"), false, "diagnose", "1034").out().replaceAll("\\s*\\n│\\s+", " ");
        assertThat(out).contains("memory peak unknown of 2000G · 32 CPU · no node (never started)");
    }

    /**
     * 1015's node failure came in epoch 22 of 90: the compact view's advice is that its rerun would reach the time
     * limit, before how to restart, and the requeue's reason names the event once; 1042 never started and set no
     * time: its headline says "partition default", not sacct's raw Partition_Limit (an outside audit).
     */
    @Test
    void theCompactViewWarnsFirstThatARerunWouldFailAgain() {
        String nf = run(Map.of("COLUMNS", "120"), false, "diagnose", "1015").out().replaceAll("\\s*\\n│\\s+", " ");
        assertThat(nf).contains("› Even with this fixed, the rerun would reach its time limit")
                .doesNotContain("On restart, resume").doesNotContain("preemption (node failure)");
        assertThat(run(Map.of("COLUMNS", "100"), false, "diagnose", "1042").out()).contains("00:00:00/partition default")
                .doesNotContain("Partition_Limit");
    }

    @Test
    void inlineCodeIsNeverSplitAcrossLines() {
        CliTest.Result r = run(Map.of("COLUMNS", "80"), false, "diagnose", "22542799", "--full");
        List<String> lines = r.out().lines().map(l -> l.replace("```", "")).toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.chars().filter(c -> c == '`').count() % 2 == 1) {
                // only a span wider than a whole line may be broken (the last resort): it fills this line
                String start = line.substring(line.lastIndexOf('`'));
                String rest = i + 1 < lines.size() ? lines.get(i + 1).replaceFirst("^│\\s+", "") : "";
                String span = start + rest.substring(0, rest.indexOf('`') + 1);
                assertThat(span.length()).as("an inline code span that would fit was split: " + line).isGreaterThan(80 - 16);
                assertThat(line.length()).as(line).isGreaterThanOrEqualTo(80 - 8);
                i++; // the next line closes the span
            }
        }
    }

    /**
     * A job waiting on a per-user limit names the user's running jobs that hold it and the most time each has left:
     * 1059 waits (QOSMaxGRESPerUser) behind 1058's eight H100s, 18:55:49 into a day (an outside audit).
     */
    @Test
    void aJobWaitingOnAPerUserLimitNamesTheRunningJobsThatHoldIt() {
        CliTest.Result r = run("diagnose", "1059");
        assertThat(r.out().replaceAll("\\s*\\n│\\s+", " "))
                .contains("your running jobs: 1058 (8 GPU h100, gpuH100x8, at most 05:04:11 left)");
        CliTest.Result other = run("diagnose", "1053"); // a dependency, not a per-user limit
        assertThat(other.out()).doesNotContain("your running jobs");
    }

    @Test
    void aPendingJobNamesTheJobItDependsOnAndItsState() {
        CliTest.Result r = run("diagnose", "1053");
        assertThat(r.out().replaceAll("\\s*\\n│\\s+", " ")).contains("depends on job 1051 (afterok), which is RUNNING");
    }

    @Test
    void kbShowTakesAKindInAnyCase() {
        CliTest.Result r = run("kb", "show", "OOM");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Out of memory (host RAM)");
    }

    @Test
    void classifyOfStdinTitlesItsPanelStdinAndAnUnknownLogSaysNoFailureRecognised() {
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream("epoch 3 done\nall good so far\n".getBytes(StandardCharsets.UTF_8)));
            CliTest.Result r = run("classify", "-");
            assertThat(r.code()).isZero();
            assertThat(r.out()).startsWith("╭─ stdin").contains("no failure recognised").doesNotContain("none applies");
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void topLevelHelpSummariesAreWholeSentences() {
        CliTest.Result r = run("--help");
        List<String> summaries = r.out().lines().dropWhile(l -> !l.startsWith("Commands:")).skip(1)
                .takeWhile(l -> !l.isBlank()).filter(l -> l.matches("^  \\S.*")).toList();
        assertThat(summaries).hasSizeGreaterThan(5);
        for (String s : summaries) {
            String text = s.strip().replaceFirst("^\\S+\\s+", "");
            assertThat(text).as(s).matches("^[A-Z].*[.]$");
        }
    }

    @Test
    void withoutAConfiguredModelTheMissingModelIsSaidOnceADay(@TempDir Path home) {
        // SLURMWISE_LLM_BASE_URL unset: the default local endpoint, where nothing listens in the tests
        Map<String, String> env = Map.of("SLURMWISE_NO_LLM", "", "SLURMWISE_HOME", home.toString());
        CliTest.Result first = run(env, false, "diagnose", "1001");
        assertThat(first.code()).isZero();
        assertThat(first.err()).contains("no language model answered");
        CliTest.Result again = run(env, false, "diagnose", "22542799");
        assertThat(again.code()).isZero();
        assertThat(again.err()).doesNotContain("no language model answered");
        CliTest.Result doctor = run(env, false, "doctor");
        assertThat(doctor.out()).containsIgnoringCase("language model");
    }

    @Test
    void anUnknownJobGetsOneMessage() {
        CliTest.Result r = run("diagnose", "424242");
        assertThat(r.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(r.out()).isEmpty();
        assertThat(StderrText.messages(r.err())).hasSize(1);
    }
}
