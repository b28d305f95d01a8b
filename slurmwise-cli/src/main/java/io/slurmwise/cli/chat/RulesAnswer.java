package io.slurmwise.cli.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.agent.chat.ChatAgent;
import io.slurmwise.agent.chat.ChatTools;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the chat can still say when the model fails mid-question: the rules' diagnosis of each job the question had
 * the tools diagnose, else of each job it names as "job 1001" (at most {@link #MAX_JOBS}, asked of the same read-only
 * {@code diagnose_job} tool). A bare number is not taken for a job ("after 48 hours").
 */
final class RulesAnswer {

    static final ObjectMapper JSON = new ObjectMapper();
    static final int MAX_JOBS = 3;

    private RulesAnswer() {
    }

    /** The rules' answer, a paragraph per job, or empty when the question diagnosed and names no job. */
    static String of(ChatCommand.RecordingTools tools, String question) {
        List<JsonNode> diagnoses = new ArrayList<>(tools.diagnosed);
        if (diagnoses.isEmpty()) {
            for (String id : named(question)) {
                try {
                    diagnoses.add(JSON.valueToTree(((ChatTools) tools).call("diagnose_job", Map.of("job_id", id))));
                } catch (RuntimeException e) {
                    // the tools cannot say either (a backend down, a bad id): nothing to add
                }
            }
        }
        return paragraphs(diagnoses);
    }

    private static String paragraphs(List<JsonNode> diagnoses) {
        List<String> parts = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (JsonNode d : diagnoses) {
            if (parts.size() < MAX_JOBS && seen.add(d.path("job_id").asText())) {
                String p = paragraph(d);
                if (!p.isEmpty()) {
                    parts.add(p);
                }
            }
        }
        return String.join("\n\n", parts);
    }

    /**
     * The rules' answer for {@code ids} (the jobs a question names, as the chat agent read them), each from the
     * question's own diagnosis of it when the model asked for one, else asked now.
     */
    static String of(ChatCommand.RecordingTools tools, List<String> ids) {
        List<JsonNode> diagnoses = new ArrayList<>();
        for (String id : ids) {
            JsonNode had = tools.diagnosed.stream().filter(d -> id.equals(d.path("job_id").asText())).findFirst()
                    .orElse(null);
            if (had != null) {
                diagnoses.add(had);
                continue;
            }
            try {
                diagnoses.add(JSON.valueToTree(((ChatTools) tools).call("diagnose_job", Map.of("job_id", id))));
            } catch (RuntimeException e) {
                // the tools cannot say either: nothing to add
            }
        }
        return paragraphs(diagnoses);
    }

    /** The job ids the question names as jobs, first ones first (the chat agent's reading). */
    static List<String> named(String question) {
        return ChatAgent.jobsNamed(question, MAX_JOBS);
    }

    private static String paragraph(JsonNode d) {
        String id = d.path("job_id").asText();
        switch (d.path("status").asText()) {
            case "failed" -> {
                return ChatAgent.findingParagraph(d) + "\n`slurmwise diagnose " + id + "` shows the whole diagnosis.";
            }
            case "status_only" -> {
                return d.path("summary").asText();
            }
            case "not_found" -> {
                return d.path("message").asText();
            }
            default -> {
                return "";
            }
        }
    }
}
