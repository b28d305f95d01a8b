package io.slurmwise.diagnose;

/**
 * The finding in words.
 *
 * @param source {@code template}, or the model that worded it (which never changes the kind)
 * @param note   why a language model's words are not the ones shown (its server failed, it answered nothing but
 *               its reasoning, its answer was cut at its length limit, contradicted the rules or invented a fact),
 *               or null
 */
public record Explanation(String text, String source, String note) {

    /**
     * The longest explanation kept, in characters: the same bound the MCP server puts on any one field of an answer,
     * so that {@code diagnose --json}, {@code --full} and {@code diagnose_job} carry the same words. A model that
     * answers megabytes (an outside audit: 5.4 MB taken whole by the CLI) is cut here, and says so.
     */
    public static final int MAX_CHARS = 16 * 1024;

    /** A text over {@link #MAX_CHARS} is cut to fit, marked with how much was left out. */
    public Explanation {
        text = capped(text, MAX_CHARS);
    }

    public Explanation(String text, String source) {
        this(text, source, null);
    }

    /** The same words with a note on why the model's were not used. */
    public Explanation withNote(String why) {
        return new Explanation(text, source, why);
    }

    public java.util.Optional<String> optNote() {
        return java.util.Optional.ofNullable(note);
    }

    /**
     * {@code s} cut to at most {@code maxChars} characters in all, the marker {@code [... N more characters cut]}
     * included (never inside a surrogate pair); a text already cut is left as it is.
     */
    public static String capped(String s, int maxChars) {
        if (s == null || s.length() <= maxChars) {
            return s;
        }
        int keep = Math.max(0, maxChars - 40);
        if (keep > 0 && Character.isHighSurrogate(s.charAt(keep - 1))) {
            keep--;
        }
        return s.substring(0, keep) + " [... " + (s.length() - keep) + " more characters cut]";
    }
}
