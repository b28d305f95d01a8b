package io.slurmwise.cli.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.backend.real.LabCluster;
import io.slurmwise.cli.Main;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code slurmwise stats} against the lab's real SLURM cluster: over a window that holds exactly the last
 * scenario run, it counts the real jobs as accounting recorded them (failed, cancelled apart, pending) and
 * finds every failure kind the scenarios provoke. Fails, never skips, without the cluster.
 */
@Tag("slurm")
class RealClusterStatsTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode run(String... args) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("SLURMWISE_HOME", Path.of("target", "slurmwise-home").toAbsolutePath().toString());
        env.put("SLURMWISE_BACKEND", "real");
        env.put("SLURMWISE_NO_LLM", "1");
        env.put("COLUMNS", "100");
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err), env, false);
        assertThat(code).as(err.toString()).isZero();
        return JSON.readTree(out.toString());
    }

    @Test
    void countsTheRealScenarioJobs() throws Exception {
        LabCluster lab = LabCluster.require();
        Set<String> scenarioIds = new HashSet<>();
        lab.scenarios().forEach(s -> scenarioIds.add(s.jobId()));

        // the window: from the first scenario job's submission to now
        JsonNode all = run("jobs", "--json", "--since", "now-2days");
        LocalDateTime first = null;
        for (JsonNode j : all.get("jobs")) {
            if (scenarioIds.contains(j.get("id").asText()) && !j.get("submit").isNull()) {
                LocalDateTime t = LocalDateTime.parse(j.get("submit").asText());
                first = first == null || t.isBefore(first) ? t : first;
            }
        }
        assertThat(first).as("the scenario jobs are in accounting").isNotNull();
        String since = first.minusSeconds(1).toString();

        JsonNode jobs = run("jobs", "--json", "--since", since);
        Map<String, Integer> byState = new HashMap<>();
        Set<String> listed = new HashSet<>();
        int counted = 0;
        for (JsonNode j : jobs.get("jobs")) {
            // a COMPLETED job whose srun step failed (step_oom) is a failure to stats, as to diagnose
            boolean stepFailed = j.get("state").asText().equals("COMPLETED") && j.hasNonNull("failed_step");
            // stats counts a pending array's one row (pending_array_task: <id>_[1-3]) as the tasks it stands for
            int tasks = (int) io.slurmwise.job.JobId.parse(j.get("id").asText()).taskCount();
            byState.merge(stepFailed ? "FAILED" : j.get("state").asText(), tasks, Integer::sum);
            counted += tasks;
            listed.add(j.get("id").asText());
        }
        for (LabCluster.Scenario s : lab.scenarios()) {
            assertThat(listed).as(s.name()).anyMatch(s::names);
        }

        JsonNode stats = run("stats", "--json", "--since", since, "--all-users", "--logs", "on");
        JsonNode total = stats.get("total");
        int failed = 0;
        for (String s : List.of("FAILED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL", "BOOT_FAIL", "DEADLINE")) {
            failed += byState.getOrDefault(s, 0);
        }
        assertThat(total.get("jobs").asInt()).isEqualTo(counted);
        assertThat(total.get("failed").asInt()).isEqualTo(failed);
        assertThat(total.get("cancelled").asInt()).isEqualTo(byState.getOrDefault("CANCELLED", 0));
        assertThat(total.get("pending").asInt()).isEqualTo(byState.getOrDefault("PENDING", 0));
        assertThat(total.get("completed").asInt()).isEqualTo(byState.getOrDefault("COMPLETED", 0));

        Map<String, Integer> kinds = new HashMap<>();
        stats.get("by_kind").forEach(k -> kinds.put(k.get("key").asText(), k.get("failed").asInt()));
        for (LabCluster.Scenario s : lab.scenarios()) {
            // by_kind's failures are the failed jobs': a job SLURM recorded CANCELLED (dep_cancelled, slurmctld's cancel for
            // its dependency) or COMPLETED (step_oom, whose srun step ran out of memory) counts in its own column
            boolean failedState = !List.of("CANCELLED", "COMPLETED").contains(s.expectedState());
            if (!s.pending() && failedState && !s.expectedKind().equals("none") && !s.expectedKind().equals("cancelled")) {
                assertThat(kinds).as("failures of kind " + s.expectedKind() + " (scenario " + s.name() + ")")
                        .containsKey(s.expectedKind());
            }
        }
    }
}
