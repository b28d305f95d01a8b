package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How big each argument of a tool may be, read from its input schema ({@code maxLength} of a string property):
 * a 1 MB job id is refused with a message naming the limit before any handler sees it, so no answer (and no
 * error message) can echo it. Numbers and booleans sent as text get {@value #SCALAR} characters, arguments a tool
 * does not declare {@value #UNDECLARED}; objects are refused and lists hold at most {@value #LIST_ITEMS} scalars.
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

    private final Map<String, Integer> caps;

    private ArgumentLimits(Map<String, Integer> caps) {
        this.caps = caps;
    }

    static ArgumentLimits of(ToolDefinition def) {
        Map<String, Integer> caps = new HashMap<>();
        JsonNode props = def.inputSchema().path("properties");
        props.fields().forEachRemaining(e -> {
            JsonNode p = e.getValue();
            boolean text = "string".equals(p.path("type").asText()) || "array".equals(p.path("type").asText());
            caps.put(e.getKey(), text ? p.path("maxLength").asInt(UNDECLARED) : SCALAR);
        });
        return new ArgumentLimits(caps);
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
        for (Map.Entry<String, Object> e : args.entrySet()) {
            String name = e.getKey();
            if (name.length() > UNDECLARED) {
                throw new IllegalArgumentException("an argument name is " + name.length() + " characters long; the "
                        + "tool's input schema lists its arguments");
            }
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

    private static void length(String name, long length, int cap) {
        if (length > cap) {
            throw new IllegalArgumentException("the argument '" + quote(name) + "' is " + length
                    + " characters long; at most " + cap + " are accepted");
        }
    }

    /** Up to 64 characters of something a client sent, for a message. */
    static String quote(String s) {
        String one = s.replaceAll("\\p{Cntrl}", "?");
        return one.length() <= 64 ? one : one.substring(0, 64) + "...";
    }
}
