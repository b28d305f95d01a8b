package io.slurmwise.agent.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.Slurmwise;
import io.slurmwise.agent.explain.JobFacts;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.job.DataSize;
import io.slurmwise.mcp.SlurmwiseTools;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The job's facts read from diagnose_job's JSON, whole for one job and in brief for several, as the chat gets it. */
class DiagnosisFactsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode diagnose(Map<String, Object> args) throws Exception {
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            return JSON.valueToTree(new LocalChatTools(new SlurmwiseTools(sw, "backend mock")).call("diagnose_job", args));
        }
    }

    @Test
    void oneJobsWholeRecordGivesEveryFact() throws Exception {
        JobFacts f = DiagnosisFacts.of(diagnose(Map.of("job_id", "1018")));
        assertThat(f.elapsed()).isEqualTo(Duration.parse("PT8H27S"));
        assertThat(f.limit()).isEqualTo(Duration.ofHours(8));
        assertThat(f.peak()).isNotNull();
        assertThat(f.partition()).isEqualTo("cpu");
        assertThat(f.nodes()).isEqualTo(Set.of("cn061", "cn062"));
        // 480G in all over 2 nodes: 240G per node, and per CPU
        assertThat(f.memoryLimits()).contains(DataSize.ofGibibytes(480), DataSize.ofGibibytes(240));
        // a job's facts are the ones a record of the job gives, by either reading
        JobFacts wholeOf1024 = DiagnosisFacts.of(diagnose(Map.of("job_id", "1024")));
        assertThat(wholeOf1024.memoryLimits()).contains(DataSize.ofGibibytes(1)); // 512G over 512 CPUs
    }

    @Test
    void severalJobsBriefRecordsGiveTheirMainNumbers() throws Exception {
        JsonNode result = diagnose(Map.of("job_ids", "1001,22542799"));
        JsonNode second = result.path("diagnoses").get(1);
        assertThat(second.path("job").has("node_list")).isFalse();
        JobFacts f = DiagnosisFacts.of(second);
        assertThat(f.elapsed()).isEqualTo(Duration.parse("PT12H3S"));
        assertThat(f.limit()).isEqualTo(Duration.ofHours(12));
        assertThat(f.partition()).isEqualTo("gpuA100x4");
        assertThat(f.memoryLimits()).containsOnly(DataSize.ofGibibytes(64));
        assertThat(f.nodes()).isEmpty();
    }

    @Test
    void aDiagnosisWithoutARecordGivesNoFacts() {
        assertThat(DiagnosisFacts.of(JSON.createObjectNode().put("status", "not_found"))).isEqualTo(JobFacts.NONE);
        assertThat(DiagnosisFacts.of(null)).isEqualTo(JobFacts.NONE);
        JsonNode unlimited = JSON.createObjectNode().set("job", JSON.createObjectNode().put("time_limit", "UNLIMITED")
                .put("elapsed", "14:08:33").put("req_mem", "4Gc").put("partition", "largemem"));
        JobFacts f = DiagnosisFacts.of(unlimited);
        assertThat(f.limit()).isNull();
        assertThat(f.elapsed()).isEqualTo(Duration.parse("PT14H8M33S"));
        assertThat(f.memoryLimits()).isEmpty();
        assertThat(f.peak()).isNull();
    }
}
