package io.slurmwise.diagnose;

/**
 * The finding in words.
 *
 * @param source {@code template}, or the model that worded it (which never changes the kind)
 * @param note   why a language model's words are not the ones shown (it did not answer, or its answer
 *               contradicted the rules or invented a fact), or null
 */
public record Explanation(String text, String source, String note) {

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
}
