package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How big each argument of a tool may be, read from its input schema ({@code maxLength} of a string property):
 * a 1 MB job id is refused with a message naming the limit before any handler sees it, so no answer (and no
 * error message) can echo it. Numbers and booleans sent as text get {@value #SCALAR} characters; objects are refused
 * and lists hold at most {@value #LIST_ITEMS} scalars. An argument the tool does not declare is refused, naming the
 * ones it has: a misspelt filter ({@code state} for {@code states}) must not be dropped silently.
 *
 * <pre>{@code
 * ArgumentLimits.of(ToolDefinition.load("get_job")).check(Map.of("job_id", "1".repeat(1 << 20)));
 * // IllegalArgumentException: the argument 'job_id' is 1048576 characters long; at most 64 are accepted
 * }</pre>
 */
final class ArgumentLimits {

    static final int SCALAR = 32;
    static final int UNDECLARED = 256;
    static final int LIST_ITEMS = 100;
    static final int ARGUMENTS = 32;

    private final String tool;
    private final Map<String, Integer> caps;

    private ArgumentLimits(String tool, Map<String, Integer> caps) {
        this.tool = tool;
        this.caps = caps;
    }

    static ArgumentLimits of(ToolDefinition def) {
        Map<String, Integer> caps = new LinkedHashMap<>();
        JsonNode props = def.inputSchema().path("properties");
        props.fields().forEachRemaining(e -> {
            JsonNode p = e.getValue();
            boolean text = "string".equals(p.path("type").asText()) || "array".equals(p.path("type").asText());
            caps.put(e.getKey(), text ? p.path("maxLength").asInt(UNDECLARED) : SCALAR);
        });
        return new ArgumentLimits(def.name(), caps);
    }

    /** The cap of a declared string argument (its schema's maxLength), or null. */
    Integer cap(String name) {
        return caps.get(name);
    }

    void check(Map<String, Object> args) {
        if (args.size() > ARGUMENTS) {
            throw new IllegalArgumentException(args.size() + " arguments were sent; at most " + ARGUMENTS
                    + " are read (see the tool's input schema)");
        }
        for (String name : args.keySet()) {
            if (name.length() > UNDECLARED) {
                throw new IllegalArgumentException("an argument name is " + name.length() + " characters long; the "
                        + "tool's input schema lists its arguments");
            }
        }
        // an outside audit: list_jobs {"state": "FAILED"} answered every job of every state, saying nothing
        List<String> unknown = args.keySet().stream().filter(n -> !caps.containsKey(n)).sorted().toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(unknown("tool " + tool, unknown, caps.keySet()));
        }
        for (Map.Entry<String, Object> e : args.entrySet()) {
            String name = e.getKey();
            int cap = caps.getOrDefault(name, UNDECLARED);
            Object v = e.getValue();
            if (v instanceof Map<?, ?>) {
                throw new IllegalArgumentException("the argument '" + quote(name) + "' must be a string or a number, "
                        + "not an object");
            }
            if (v instanceof List<?> list) {
                if (list.size() > LIST_ITEMS) {
                    throw new IllegalArgumentException("the argument '" + quote(name) + "' has " + list.size()
                            + " entries; at most " + LIST_ITEMS + " are accepted");
                }
                long total = 0;
                for (Object x : list) {
                    if (x instanceof Map<?, ?> || x instanceof List<?>) {
                        throw new IllegalArgumentException("the entries of '" + quote(name)
                                + "' must be strings or numbers");
                    }
                    total += String.valueOf(x).length() + 1;
                }
                length(name, total, cap);
            } else if (v != null) {
                // characters as JSON Schema's maxLength counts them: code points, so an emoji is one, not two
                String s = v instanceof String str ? str : String.valueOf(v);
                length(name, s.length() > cap ? s.codePointCount(0, s.length()) : s.length(), cap);
            }
        }
    }

    /**
     * "tool list_jobs has no argument 'state' (did you mean 'states'?); its arguments are: states, since, ...": for an
     * argument a tool or prompt does not take.
     */
    static String unknown(String what, List<String> names, java.util.Collection<String> known) {
        StringBuilder m = new StringBuilder(what).append(" has no argument ");
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            m.append(i == 0 ? "" : i == names.size() - 1 ? " nor " : ", ").append('\'').append(quote(name)).append('\'')
                    .append(known.stream().filter(k -> near(k, name)).findFirst()
                            .map(k -> " (did you mean '" + k + "'?)").orElse(""));
        }
        return m.append("; ").append(known.isEmpty() ? "it takes none"
                : "its arguments are: " + String.join(", ", known)).toString();
    }

    /** {@code state} and {@code states}, {@code status} and {@code states}, {@code username} and {@code user}. */
    private static boolean near(String known, String name) {
        String a = known.toLowerCase(java.util.Locale.ROOT);
        String b = name.toLowerCase(java.util.Locale.ROOT).replace('-', '_').strip();
        if (b.length() > 64 || b.isEmpty()) {
            return false;
        }
        if (a.equals(b) || (Math.min(a.length(), b.length()) >= 4 && (a.startsWith(b) || b.startsWith(a)))) {
            return true;
        }
        // edit distance at most 1 for short names, 2 for longer ones
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                cur[j] = Math.min(Math.min(cur[j - 1], prev[j]) + 1, prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()] <= (a.length() <= 4 ? 1 : 2);
    }

    private static void length(String name, long length, int cap) {
        if (length > cap) {
            throw new IllegalArgumentException("the argument '" + quote(name) + "' is " + length
                    + " characters long; at most " + cap + " are accepted");
        }
    }

    /** Up to 64 characters of something a client sent, for a message. */
    static String quote(String s) {
        String one = io.slurmwise.mcp.stdio.Shown.oneLine(s);
        return one.length() <= 64 ? one : one.substring(0, 64) + "...";
    }
}
