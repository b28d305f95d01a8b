package io.slurmwise.cli.diagnose;

import com.fasterxml.jackson.databind.JsonNode;
import io.slurmwise.cli.render.Panel;
import io.slurmwise.cli.render.TerminalText;
import io.slurmwise.cli.render.Style;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The panel of a diagnosis that an MCP server sent as JSON ({@code diagnose --mcp-server}): the cause, the
 * deciding evidence, the patch and the first fixes, as the in-process panel shows them; the rest is in
 * {@code --json}.
 */
final class McpDiagnosisText {

    private final Style style;
    private final boolean full;

    McpDiagnosisText(Style style, boolean full) {
        this.style = style;
        this.full = full;
    }

    void print(PrintWriter out, JsonNode answer, String server) {
        // another process's answer, with a job's log lines and names in it: cleaned before any of it is laid out
        JsonNode d = clean(answer);
        String status = d.path("status").asText();
        if (!"failed".equals(status)) {
            Panel.println(out, d.path("not_found".equals(status) ? "message" : "summary").asText(
                    "job " + d.path("job_id").asText() + ": " + status), style.width());
            out.flush();
            return;
        }
        JsonNode j = d.path("job");
        JsonNode f = d.path("finding");
        Panel panel = new Panel(style, "job " + j.path("id").asText() + " " + TerminalText.line(j.path("name").asText()) + " ["
                + style.state(io.slurmwise.job.JobState.parse(j.path("state").asText()).outcome(), j.path("state").asText()) + "] exit " + j.path("exit_code").asText("?") + " "
                + j.path("elapsed").asText("?") + "/" + j.path("time_limit").asText("?"));
        panel.row("Cause", style.bold(style.red(f.path("title").asText())) + " (" + f.path("kind").asText() + ") · confidence "
                + String.format(Locale.ROOT, "%.0f%%", f.path("confidence").asDouble() * 100) + " · rules");
        List<JsonNode> evidence = new ArrayList<>();
        f.path("evidence").forEach(evidence::add);
        evidence.sort(Comparator.comparingDouble((JsonNode e) -> -e.path("weight").asDouble()));
        if (!evidence.isEmpty()) {
            panel.heading("Evidence");
            evidence.stream().limit(full ? evidence.size() : 3).forEach(e -> panel.item(style.dim(location(e)),
                    Panel.logLine(e.path("text").asText(), e.path("match").isTextual() ? e.path("match").asText() : null,
                            style.width() - 19, full ? 20 : 1)));
        }
        if (full && !d.path("explanation").path("text").asText().isEmpty()) {
            // a model's wording is labelled as such, as the local panel does
            panel.row(d.path("explanation").path("source").asText("").startsWith("llm:") ? "Why (model)" : "Why",
                    d.path("explanation").path("text").asText());
        }
        JsonNode patch = d.path("patch");
        if ("suggested".equals(patch.path("status").asText())) {
            panel.row("Patch", patch.path("script").asText() + style.dim(" · suggested, never applied"));
            for (String line : patch.path("diff").asText().split("\n")) {
                boolean change = (line.startsWith("+") || line.startsWith("-")) && !line.startsWith("+++") && !line.startsWith("---");
                if (full || change) {
                    panel.verbatim(line);
                }
            }
        }
        for (JsonNode fix : d.path("fixes")) {
            if ("fixes".equalsIgnoreCase(fix.path("section").asText())) {
                panel.heading("Fixes " + style.dim("(" + fix.path("kind").asText() + ")"));
                List<String> lines = fix.path("text").asText().lines().toList();
                lines.stream().limit(full ? lines.size() : 6).forEach(l -> panel.item("", l.strip()));
                break;
            }
        }
        panel.footer(d.path("method").asText() + " · " + d.path("backend").asText() + " · through the MCP server `"
                + server + "`").print(out);
    }

    /** A copy of {@code node} whose every string is {@link TerminalText#text terminal-safe}. */
    static JsonNode clean(JsonNode node) {
        if (node.isTextual()) {
            return com.fasterxml.jackson.databind.node.TextNode.valueOf(TerminalText.text(node.asText()));
        }
        if (node.isObject()) {
            com.fasterxml.jackson.databind.node.ObjectNode o = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            node.fields().forEachRemaining(e -> o.set(TerminalText.line(e.getKey()), clean(e.getValue())));
            return o;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode a = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
            node.forEach(e -> a.add(clean(e)));
            return a;
        }
        return node;
    }

    private static String location(JsonNode e) {
        String source = e.path("source").asText();
        String loc = switch (source) {
            case "stdout", "stderr" -> source + ":" + (e.path("line_in_file").asBoolean(true) ? "" : "tail+")
                    + e.path("line").asText();
            case "accounting" -> "sacct";
            default -> source;
        };
        return loc.length() >= 12 ? loc : loc + " ".repeat(12 - loc.length());
    }
}
