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
 * What the chat can still say when the model fails mid-question: the rules' diagnosis of each job the question asks
 * about as the chat agent reads it ("job 1001", or a bare id that is a job's: "what went wrong with 1001?"), else of
 * each job the question had the tools diagnose (at most {@link #MAX_JOBS}, asked of the same read-only
 * {@code diagnose_job} tool).
 */
final class RulesAnswer {

    static final ObjectMapper JSON = new ObjectMapper();
    static final int MAX_JOBS = 3;

    private RulesAnswer() {
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
     * The rules' answer for {@code ids} (the jobs the question asks about, as the chat agent reads them: {@link
     * ChatAgent#questionJobs}), each from the question's own diagnosis of it when one was asked for, else asked now;
     * without ids, for the jobs the question had the tools diagnose. Empty when there are none.
     */
    static String of(ChatCommand.RecordingTools tools, List<String> ids) {
        if (ids.isEmpty()) {
            return paragraphs(tools.diagnosed);
        }
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
                // the tools cannot say either (a backend down, a bad id): nothing to add
            }
        }
        return paragraphs(diagnoses);
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
