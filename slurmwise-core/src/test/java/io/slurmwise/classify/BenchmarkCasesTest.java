package io.slurmwise.classify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.taxonomy.Taxonomy;
import io.slurmwise.testing.AccuracyFloor;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The classifier on the bundled labeled benchmark (real public logs and real SLURM captures): every kind has a
 * hard case it gets right, and accuracy stays high on the dev split it is tuned on. The reported numbers on the
 * test split come from `slurmwise eval`.
 */
class BenchmarkCasesTest {

    static final Path CASES = Path.of("..", "benchmark", "cases.jsonl");

    record Case(String id, String split, String label, boolean hard, JobFacts facts, String log) {
    }

    static List<Case> load() throws IOException {
        ObjectMapper m = new ObjectMapper();
        List<Case> out = new ArrayList<>();
        for (String line : Files.readAllLines(CASES)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode n = m.readTree(line);
            JobFacts f = new JobFacts(
                    text(n, "sacct_state") == null ? null : JobState.parse(text(n, "sacct_state")),
                    text(n, "exit_code") == null ? null : ExitCode.tryParse(text(n, "exit_code")).orElse(null),
                    text(n, "max_rss") == null ? null : DataSize.tryParse(text(n, "max_rss")).orElse(null),
                    text(n, "req_mem") == null ? null : DataSize.tryParse(text(n, "req_mem")).orElse(null),
                    text(n, "elapsed") == null ? null : SlurmTime.parseDuration(text(n, "elapsed")).orElse(null),
                    text(n, "timelimit") == null ? null : SlurmTime.parseDuration(text(n, "timelimit")).orElse(null),
                    text(n, "pending_reason"), null);
            out.add(new Case(n.get("id").asText(), n.get("split").asText(), n.get("label").asText(),
                    n.path("notes").asText("").startsWith("hard:"), f, n.get("log").asText()));
        }
        return out;
    }

    private static String text(JsonNode n, String key) {
        JsonNode v = n.get(key);
        return v == null || v.isNull() ? null : v.asText();
    }

    static boolean correct(Taxonomy t, Finding f, String label) {
        String expected = label.equals("none") ? "unknown" : label;
        return t.isA(f.kindId(), expected);
    }

    @Test
    void everyKindHasAHardCaseClassifiedRight() throws IOException {
        Classifier c = ClassifierTest.CLASSIFIER;
        Map<String, Integer> hardRight = new TreeMap<>();
        for (Case k : load()) {
            if (k.hard() && correct(c.taxonomy(), c.classifyText(k.facts(), k.log()), k.label())) {
                hardRight.merge(k.label(), 1, Integer::sum);
            }
        }
        assertThat(hardRight.keySet()).contains("oom", "cuda_oom", "cuda_error", "time_limit", "nccl", "import_error",
                "module_load", "disk_quota", "permission", "file_not_found", "segfault", "qos_limit",
                "allocation_exhausted", "dependency", "resources_unavailable", "node_fail", "cancelled", "none");
    }

    @Test
    void devSplitAccuracy() throws IOException {
        Classifier c = ClassifierTest.CLASSIFIER;
        int n = 0;
        int right = 0;
        Map<String, String> wrong = new HashMap<>();
        for (Case k : load()) {
            if (!k.split().equals("dev")) {
                continue;
            }
            n++;
            Finding f = c.classifyText(k.facts(), k.log());
            if (correct(c.taxonomy(), f, k.label())) {
                right++;
            } else {
                wrong.put(k.id(), k.label() + " -> " + f.kindId());
            }
        }
        double accuracy = right / (double) n;
        // a floor against regressions, not a target (its history in AccuracyFloor)
        assertThat(accuracy).as("dev accuracy; wrong: " + wrong).isGreaterThanOrEqualTo(AccuracyFloor.DEV);
    }
}
