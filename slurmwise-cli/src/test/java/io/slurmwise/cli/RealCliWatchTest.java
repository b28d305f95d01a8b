package io.slurmwise.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.backend.real.LabCluster;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code slurmwise watch --once --json} against the lab's real SLURM cluster: watch asks accounting for every state a
 * failure can hide in (a COMPLETED job whose step failed among them: step_oom's batch script exited 0 after its srun
 * step was killed for memory), so the failures of the lab's scenarios are reported once each, the jobs that worked
 * never, and a second poll over the same window reports nothing. Fails, never skips, without the cluster.
 */
@Tag("slurm")
class RealCliWatchTest {

    static LabCluster lab;

    @BeforeAll
    static void cluster() {
        lab = LabCluster.require();
    }

    @Test
    void watchReportsEachFailureOnceAndNoJobThatWorked(@TempDir Path home) throws IOException {
        Map<String, String> env = new HashMap<>(RealCliScenariosTest.env(Map.of()));
        env.put("SLURMWISE_HOME", home.toString());
        // the first window starts with this run of the lab (its work dir is run-YYYYmmdd-HHMMSS): a machine that ran the
        // lab before keeps the earlier runs' jobs in accounting, hundreds of diagnoses this test has no use for
        String run = lab.scenario("completes").workDir().getFileName().toString();
        String since = java.time.LocalDateTime.parse(run.substring("run-".length()),
                java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")).toString();
        RealCliScenariosTest.Result first = RealCliScenariosTest.run(env, "watch", "--once", "--json", "--since", since);
        assertThat(first.code()).as(first.err()).isZero();
        Map<String, JsonNode> reported = new HashMap<>();
        ObjectMapper mapper = new ObjectMapper();
        for (String line : first.out().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode d = mapper.readTree(line);
            assertThat(reported.put(d.get("job_id").asText(), d)).as("reported twice: " + line).isNull();
        }
        Set<String> worked = Set.of("completes", "array_task_ok", "gpu_completes");
        for (LabCluster.Scenario s : lab.scenarios()) {
            if (s.pending()) {
                continue; // still waiting: nothing to report yet
            }
            if (worked.contains(s.name())) {
                assertThat(reported).as(s.name() + " worked; watch must not report it").doesNotContainKey(s.jobId());
            } else {
                assertThat(reported).as(s.name() + " (" + s.expectedState() + ") is a failure watch must report")
                        .containsKey(s.jobId());
            }
        }
        // the job SLURM calls COMPLETED 0:0: reported as its step's out-of-memory kill, with the step named
        JsonNode stepOom = reported.get(lab.scenario("step_oom").jobId());
        assertThat(stepOom.at("/job/state").asText()).isEqualTo("COMPLETED");
        assertThat(stepOom.at("/job/failed_step/state").asText()).isEqualTo("OUT_OF_MEMORY");
        assertThat(Taxonomy.load(null).isA(stepOom.at("/finding/kind").asText(), "oom"))
                .as(stepOom.at("/finding/kind").asText()).isTrue();

        RealCliScenariosTest.Result second = RealCliScenariosTest.run(env, "watch", "--once", "--json");
        assertThat(second.code()).as(second.err()).isZero();
        assertThat(second.out()).as("a second poll over the same jobs").isBlank();
        assertThat(List.of(first.err(), second.err())).noneMatch(e -> e.contains("Exception"));
    }
}
