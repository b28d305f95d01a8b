package io.slurmwise.classify;

import io.slurmwise.taxonomy.FailureKind;

import java.util.List;

/**
 * The classifier's verdict: the root-cause kind, how sure it is, the evidence for it, and the other kinds seen.
 * Always produced by rules; an explainer may reword it but never changes the kind.
 *
 * @param confidence 0..1; for {@code unknown} it is how sure we are that no known kind applies
 */
public record Finding(FailureKind kind, double confidence, List<Evidence> evidence, List<KindScore> others) {

    /** A kind that was also seen, with its score after root-cause resolution. */
    public record KindScore(String kindId, double score) {
    }

    public Finding {
        evidence = List.copyOf(evidence);
        others = List.copyOf(others);
    }

    public String kindId() {
        return kind.id();
    }

    public boolean isUnknown() {
        return kind.isUnknown();
    }

    /** Always "rules": the cause is never picked by a language model. */
    public String source() {
        return "rules";
    }
}
