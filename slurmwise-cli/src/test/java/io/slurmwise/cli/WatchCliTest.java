package io.slurmwise.cli;

import io.slurmwise.cli.context.ExitCodes;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** `slurmwise watch` on the mock cluster: every failed job once, then nothing new; the state survives runs. */
class WatchCliTest {

    static final ObjectMapper M = new ObjectMapper();

    static CliTest.Result watch(Path home, String... args) {
        String[] all = Stream.concat(Stream.of("watch"), Stream.of(args)).toArray(String[]::new);
        return CliTest.run(Map.of("SLURMWISE_HOME", home.toString()), false, all);
    }

    static List<JsonNode> lines(String out) throws IOException {
        List<JsonNode> l = new ArrayList<>();
        for (String s : out.split("\n")) {
            if (!s.isBlank()) {
                l.add(M.readTree(s));
            }
        }
        return l;
    }

    /**
     * Every job of the mock cluster that ended and that `jobs --json` gives a kind (the jobs diagnose explains: failed,
     * cancelled, preempted, and 1062, COMPLETED with a step that ran out of memory).
     */
    static Set<String> failedJobs() throws IOException {
        JsonNode jobs = CliTest.run("jobs", "--json").json();
        Set<String> ids = new HashSet<>();
        jobs.get("jobs").forEach(j -> {
            if (!j.get("end").isNull() && !j.get("kind").isNull()) {
                ids.add(j.get("id").asText());
            }
        });
        return ids;
    }

    @Test
    void diagnosesEveryFailedJobOnceThenReportsNothingNew(@TempDir Path home) throws IOException {
        CliTest.Result first = watch(home, "--once", "--json");
        assertThat(first.code()).as(first.err()).isZero();
        List<JsonNode> records = lines(first.out());
        List<String> ids = records.stream().map(r -> r.get("job_id").asText()).toList();
        assertThat(ids).doesNotHaveDuplicates();
        assertThat(new HashSet<>(ids)).isEqualTo(failedJobs()).contains("1001", "22542799", "4242_3", "1042", "1062");
        assertThat(records).allSatisfy(r -> {
            assertThat(r.get("schema").asText()).isEqualTo("slurmwise.diagnosis/v1");
            assertThat(r.get("status").asText()).isEqualTo("failed");
        });
        JsonNode oom = records.stream().filter(r -> r.get("job_id").asText().equals("1001")).findFirst().orElseThrow();
        assertThat(oom.at("/finding/kind").asText()).isEqualTo("oom");
        // COMPLETED 0:0, but its srun step 1062.0 ran out of memory: watch reports it as diagnose explains it
        JsonNode step = records.stream().filter(r -> r.get("job_id").asText().equals("1062")).findFirst().orElseThrow();
        assertThat(step.at("/finding/kind").asText()).isEqualTo("oom");
        assertThat(step.at("/job/state").asText()).isEqualTo("COMPLETED");

        JsonNode state = M.readTree(home.resolve("watch-mock.json").toFile());
        assertThat(state.get("schema").asText()).isEqualTo("slurmwise.watch-state/v1");
        assertThat(state.get("diagnosed").size()).isEqualTo(ids.size());
        try (Stream<Path> files = Files.list(home)) {
            // the state file, and nothing else but the knowledge index the diagnoses used
            assertThat(files.map(p -> p.getFileName().toString())).contains("watch-mock.json").isSubsetOf("watch-mock.json", "kb");
        }

        CliTest.Result second = watch(home, "--once", "--json");
        assertThat(second.code()).isZero();
        assertThat(second.out()).isBlank();
        CliTest.Result text = watch(home, "--once");
        assertThat(text.out()).startsWith("No new failures in ");
    }

    @Test
    void theSummaryTableAndThePollingLoop(@TempDir Path home) {
        CliTest.Result r = watch(home, "--interval", "1s", "--max-polls", "2");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("JOBID").contains("KIND").contains("1001").contains("oom")
                .contains("22542799").contains("time_limit").contains("new failures in");
        // 1062 COMPLETED to SLURM, but its step ran out of memory: marked, and the mark explained under the table
        String row1062 = r.out().lines().filter(l -> l.startsWith("1062 ")).findFirst().orElseThrow();
        assertThat(row1062).contains("COMPLETED*").contains("oom");
        // the deciding line under its row, under the columns after the id, wide enough to read (a ninth column kept 7
        // characters of it at 80)
        List<String> lines = r.out().lines().toList();
        String under1001 = lines.get(lines.indexOf(lines.stream().filter(l -> l.startsWith("1001 ")).findFirst()
                .orElseThrow()) + 1);
        assertThat(under1001).startsWith("          slurmstepd: error: Detected 1 oom-kill event(s) in StepId=1001");
        assertThat(r.out().replaceAll("\\s+", " ")).contains("COMPLETED* = the batch script exited 0, but a step failed");
        // the second poll of the same run finds nothing new
        assertThat(r.out().strip()).containsPattern("No new failures in [^\\n]+$");
        assertThat(r.err()).contains("prefer 5m");
    }

    @Test
    void badOptionsSayWhatToDo(@TempDir Path home) {
        assertThat(watch(home, "--interval", "5 minutes").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(watch(home, "--max-polls", "0").code()).isEqualTo(ExitCodes.USAGE);
    }

    /** A state cut short (or not ours) is said once, in one line, set aside and rebuilt; no failure is lost. */
    @Test
    void aDamagedStateFileIsReportedOnceAndRebuilt(@TempDir Path home) throws IOException {
        Set<String> failed = failedJobs();
        assertThat(watch(home, "--once", "--json").code()).isZero();
        Path state = home.resolve("watch-mock.json");
        String whole = Files.readString(state);
        for (String damaged : List.of(whole.substring(0, whole.length() / 2), "", "{not json", "[]",
                whole.replaceFirst("\\d{4}-\\d{2}-\\d{2}T", "not-a-time"), "\u0000\u0001binary")) {
            Files.writeString(state, damaged);
            CliTest.Result r = watch(home, "--once", "--json");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(StderrText.messages(r.err())).as(damaged).singleElement().asString()
                    .contains("watch-mock.json was not a readable watch state").contains("starting afresh");
            Set<String> again = new HashSet<>();
            lines(r.out()).forEach(j -> again.add(j.get("job_id").asText()));
            assertThat(again).as("every failure reported again, none lost").isEqualTo(failed);
            assertThat(home.resolve("watch-mock.json.damaged")).exists();
            CliTest.Result next = watch(home, "--once", "--json");
            assertThat(next.code()).isZero();
            assertThat(next.err()).as("reported once").isBlank();
            assertThat(next.out()).isBlank();
        }
    }
}
