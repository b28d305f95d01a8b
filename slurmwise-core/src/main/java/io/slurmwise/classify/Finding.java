package io.slurmwise.classify;

import io.slurmwise.taxonomy.FailureKind;

import java.util.List;

/**
 * The classifier's verdict: the root-cause kind, how sure it is, the evidence for it, and the other kinds seen.
 * Always produced by rules; an explainer may reword it but never changes the kind.
 *
 * @param confidence 0..1; for {@code unknown} it is how sure we are that no known kind applies
 * @param leads      for {@code unknown} only, where a reader should look first: the last log lines that read like an
 *                   error (or the line a log ends with); never evidence, and empty for a known kind
 */
public record Finding(FailureKind kind, double confidence, List<Evidence> evidence, List<KindScore> others,
                      List<Evidence> leads) {

    /**
     * The most evidence kept for one kind: a log of a thousand ranks' identical lines keeps this many, so a count of
     * alike lines that reaches it means "at least".
     */
    public static final int MAX_EVIDENCE_PER_KIND = 6;

    /** A kind that was also seen, with its score after root-cause resolution. */
    public record KindScore(String kindId, double score) {
    }

    public Finding {
        evidence = List.copyOf(evidence);
        others = List.copyOf(others);
        leads = List.copyOf(leads);
    }

    /** A finding without leads (a known kind, or a record without logs). */
    public Finding(FailureKind kind, double confidence, List<Evidence> evidence, List<KindScore> others) {
        this(kind, confidence, evidence, others, List.of());
    }

    /**
     * The same finding with one more checked fact of the job for its kind (the partition's limit a refused request
     * exceeds, read after the rules from sinfo), so the views and the explanation show it among the evidence.
     */
    public Finding withCheck(String text, double weight) {
        List<Evidence> more = new java.util.ArrayList<>(evidence);
        more.add(new Evidence(Evidence.Source.CHECK, 0, false, text, kind.id(), weight));
        return new Finding(kind, confidence, more, others, leads);
    }

    public String kindId() {
        return kind.id();
    }

    public boolean isUnknown() {
        return kind.isUnknown();
    }

    /**
     * For {@code unknown}: the kinds whose signs were seen but stayed below the bar a cause needs
     * ({@link Classifier#THRESHOLD}), said as {@code "oom 35%, segfault 22%"}; empty for a known kind or when no sign
     * was seen. Every view says the same, so none claims that nothing matched while another names a weak sign.
     */
    public String weakSigns() {
        if (!isUnknown()) {
            return "";
        }
        return String.join(", ", others.stream()
                .map(o -> o.kindId() + String.format(java.util.Locale.ROOT, " %.0f%%", o.score() * 100)).toList());
    }

    /** The bar a kind's score must reach to be named the cause, in percent (50%). */
    public static String bar() {
        return String.format(java.util.Locale.ROOT, "%.0f%%", Classifier.THRESHOLD * 100);
    }

    /**
     * The evidence, strongest first: by weight, a log line before an accounting field of the same weight (1001's
     * oom-kill line before its killed DataLoader worker). Every view that names "the deciding line" takes it from
     * here, so the panel, the explanation and a watch line never name two different ones.
     */
    public List<Evidence> strongestFirst() {
        return evidence.stream().sorted(java.util.Comparator.comparingDouble((Evidence e) -> -e.weight())
                .thenComparing(e -> e.isLogLine() ? 0 : 1)).toList();
    }

    /** The deciding log line: the strongest line of the job's logs; else the strongest evidence; null for none. */
    public Evidence decidingLine() {
        List<Evidence> s = strongestFirst();
        return s.stream().filter(Evidence::isLogLine).findFirst().orElse(s.isEmpty() ? null : s.get(0));
    }

    /** Always "rules": the cause is never picked by a language model. */
    public String source() {
        return "rules";
    }
}
