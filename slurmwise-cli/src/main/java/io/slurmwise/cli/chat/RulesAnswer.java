package io.slurmwise.cli.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.agent.chat.ChatTools;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the chat can still say when the model fails mid-question: the rules' diagnosis of each job the question had
 * the tools diagnose, else of each job it names as "job 1001" (at most {@link #MAX_JOBS}, asked of the same read-only
 * {@code diagnose_job} tool). A bare number is not taken for a job ("after 48 hours").
 */
final class RulesAnswer {

    static final ObjectMapper JSON = new ObjectMapper();
    static final int MAX_JOBS = 3;
    private static final Pattern NAMED = Pattern.compile("(?i)\\bjobs?\\s*(?:id\\s*)?#?\\s*(\\d+(?:_\\d+|\\+\\d+)?)\\b");

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

    /** The job ids the question names after "job" or "jobs", first ones first. */
    static List<String> named(String question) {
        Set<String> ids = new LinkedHashSet<>();
        Matcher m = NAMED.matcher(question);
        while (m.find() && ids.size() < MAX_JOBS) {
            ids.add(m.group(1));
        }
        return List.copyOf(ids);
    }

    private static String paragraph(JsonNode d) {
        String id = d.path("job_id").asText();
        switch (d.path("status").asText()) {
            case "failed" -> {
                JsonNode f = d.path("finding");
                StringBuilder out = new StringBuilder("Job " + id + ": " + f.path("title").asText() + " ("
                        + f.path("kind").asText() + "), as slurmwise's rules decided from its record and logs.");
                JsonNode evidence = f.path("evidence").path(0).path("text");
                if (!evidence.isMissingNode()) {
                    out.append("\nEvidence: ").append(evidence.asText().strip());
                }
                JsonNode fix = d.path("fixes").path(0).path("text");
                if (!fix.isMissingNode()) {
                    String first = fix.asText().strip().split("\n\\s*\n", 2)[0].replaceAll("\\s+", " ")
                            .replaceFirst("^\\d+\\.\\s*", "");
                    out.append("\nFirst fix: ").append(first.length() > 300 ? first.substring(0, 299) + "…" : first);
                }
                return out.append("\n`slurmwise diagnose ").append(id).append("` shows the whole diagnosis.").toString();
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
