package io.slurmwise.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.NoteSection;
import io.slurmwise.taxonomy.Taxonomy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The server's resources and prompts: each failure kind's note as {@code slurmwise://knowledge/<kind>} (markdown),
 * the taxonomy as {@code slurmwise://taxonomy} (JSON), and the prompts of {@code io/slurmwise/mcp/prompts.json}.
 */
final class Catalog {

    static final String KNOWLEDGE = "slurmwise://knowledge/";
    static final String TAXONOMY = "slurmwise://taxonomy";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A prompt as the data file holds it; {@code text} has {placeholders} filled from the arguments. */
    record Prompt(String name, String title, String description, List<Argument> arguments, String text) {
    }

    record Argument(String name, String description, boolean required) {
    }

    private final Taxonomy taxonomy;

    Catalog(Taxonomy taxonomy) {
        this.taxonomy = taxonomy;
    }

    List<FailureKind> kinds() {
        return List.copyOf(taxonomy.kinds());
    }

    /** The text of a resource, or empty for an unknown URI. */
    Optional<String> read(String uri) {
        if (uri.equals(TAXONOMY)) {
            try {
                return Optional.of(JSON.writeValueAsString(Map.of("schema", "slurmwise.kinds/v1", "kinds",
                        taxonomy.kinds().stream().map(KnowledgeTools::kindSummary).toList())));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (uri.startsWith(KNOWLEDGE)) {
            return taxonomy.find(uri.substring(KNOWLEDGE.length())).map(Catalog::markdown);
        }
        return Optional.empty();
    }

    static String markdown(FailureKind k) {
        StringBuilder md = new StringBuilder("# ").append(k.title()).append("\n\nkind: `").append(k.id())
                .append("` · category: ").append(k.category().id())
                .append(k.optParent().map(p -> " · parent: `" + p + "`").orElse("")).append("\n");
        for (NoteSection s : k.note().sections()) {
            md.append("\n## ").append(s.heading()).append("\n\n").append(s.text().strip()).append("\n");
        }
        return md.toString();
    }

    static List<Prompt> prompts() {
        try (InputStream in = Catalog.class.getResourceAsStream("prompts.json")) {
            if (in == null) {
                throw new IllegalStateException("prompts.json is missing from slurmwise-mcp; rebuild it");
            }
            return JSON.readValue(in, new TypeReference<List<Prompt>>() { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The prompt's text with its arguments in place; bad arguments are errors the client shows. */
    private static final java.util.regex.Pattern USER = java.util.regex.Pattern.compile("[A-Za-z0-9._@-]{1,64}");

    static String render(Prompt p, Map<String, ?> args, LocalDate today) {
        List<String> known = p.arguments().stream().map(Argument::name).toList();
        // a misspelt argument (jobid for job_id) is said, not dropped: the prompt would ask about every job
        List<String> unknown = args == null ? List.of()
                : args.keySet().stream().filter(n -> !known.contains(n)).sorted().toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(ArgumentLimits.unknown("it", unknown, known));
        }
        Args a = new Args(args == null ? Map.of() : new LinkedHashMap<>(args));
        Map<String, String> v = new LinkedHashMap<>();
        v.put("count", String.valueOf(a.integer("count", 3, 1, 10)));
        String user = a.optional("user");
        if (user != null && !USER.matcher(user).matches()) {
            // the prompt's text goes to a model: a name is a name, not more instructions
            throw new IllegalArgumentException("user must be a user name (up to 64 letters, digits, '.', '_', '-'"
                    + " or '@'), got " + ArgumentLimits.quote(user));
        }
        v.put("user_clause", user == null ? "" : " and user=" + user);
        String job = a.optional("job_id");
        if (job != null) {
            io.slurmwise.job.JobId.parse(job);
        }
        v.put("job_clause", job == null ? "each of my pending jobs" : "job " + job);
        v.put("job_arg", job == null ? "" : " with job_id=" + job);
        v.put("month_start", today.withDayOfMonth(1).toString());
        String text = p.text();
        for (Map.Entry<String, String> e : v.entrySet()) {
            text = text.replace("{" + e.getKey() + "}", e.getValue());
        }
        return text;
    }
}
