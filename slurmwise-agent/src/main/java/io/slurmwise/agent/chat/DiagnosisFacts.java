package io.slurmwise.agent.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.slurmwise.agent.explain.JobFacts;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.job.TimeLimit;

import java.time.Duration;

/**
 * The job's facts as a {@code diagnose_job} result gives them, for the chat's answers to be checked in their roles as
 * an explanation's are ({@link JobFacts}): the record under {@code job}, whole for one job (in this process or from an
 * MCP server alike), its main numbers for each of several ({@code elapsed}, {@code time_limit}, {@code req_mem},
 * {@code max_rss_bytes}, {@code partition}; no node list). A field the result does not give is left unknown.
 *
 * <pre>{@code
 * JobFacts f = DiagnosisFacts.of(JSON.readTree(diagnoseJobResult)); // elapsed 00:41:12, limit 08:00:00, peak 31.8G
 * }</pre>
 */
final class DiagnosisFacts {

    private DiagnosisFacts() {
    }

    /** The facts of the job a diagnosis is of, or {@link JobFacts#NONE} when it carries no record. */
    static JobFacts of(JsonNode diagnosis) {
        JsonNode job = diagnosis == null ? null : diagnosis.path("job");
        if (job == null || !job.isObject()) {
            return JobFacts.NONE;
        }
        Duration elapsed = job.path("elapsed_seconds").isNumber() ? Duration.ofSeconds(job.path("elapsed_seconds").asLong())
                : SlurmTime.parseDuration(text(job, "elapsed")).orElse(null);
        Duration limit = job.path("time_limit_seconds").isNumber()
                ? Duration.ofSeconds(job.path("time_limit_seconds").asLong())
                : TimeLimit.parse(text(job, "time_limit")).limit().orElse(null);
        DataSize peak = job.path("max_rss_bytes").isNumber() ? new DataSize(job.path("max_rss_bytes").asLong()) : null;
        String partition = job.path("partition").textValue();
        String nodeList = job.path("node_list").textValue();
        if (job.path("memory_limit_bytes").isNumber()) {
            // the whole record: the limit in all, over its nodes and its CPUs
            return JobFacts.of(elapsed, limit, peak, new DataSize(job.path("memory_limit_bytes").asLong()),
                    job.path("nodes").asInt(0), job.path("cpus").asInt(0), partition, nodeList);
        }
        // the brief one: the request as written, per node ("240G"; "4Gc" per CPU does not parse, and stays unknown)
        return JobFacts.of(elapsed, limit, peak, DataSize.tryParse(text(job, "req_mem")).orElse(null), 0, 0, partition,
                nodeList);
    }

    private static String text(JsonNode job, String field) {
        return job.path(field).isTextual() ? job.path(field).asText() : "";
    }
}
