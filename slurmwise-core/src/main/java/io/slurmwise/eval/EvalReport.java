package io.slurmwise.eval;

import java.util.List;

/**
 * The scores of one evaluation run.
 *
 * @param split      which cases were scored: {@code test}, {@code dev} or {@code all}
 * @param cases      how many
 * @param correct    classified right (the kind, or its declared parent, equals the label; {@code unknown} for none)
 * @param macroF1    mean F1 over the labels and predicted kinds seen (a kind never predicted nor expected is left out)
 * @param perKind    precision and recall of each label (and of each wrongly predicted kind)
 * @param confusions the errors, grouped by label and predicted kind, most frequent first
 * @param retrieval  Recall@1, Recall@3 and MRR of the fix notes retrieved for each case's finding
 * @param wrong      every misclassified case, with its id
 * @param hardCases  how many cases are hard ({@code notes} start with {@code hard:})
 * @param hardCorrect how many of those were right
 * @param clearCases how many cases are clear (their text shows the labelled cause; see {@link BenchmarkCase#clear()})
 * @param clearCorrect how many of those were right
 * @param failedCases how many cases have a failure cause (label other than {@code none})
 * @param failedUnknown how many of those came out {@code unknown}
 */
public record EvalReport(String source, String split, int cases, int correct, double macroF1, List<KindMetrics> perKind,
                         List<Confusion> confusions, Retrieval retrieval, List<WrongCase> wrong, int hardCases,
                         int hardCorrect, int clearCases, int clearCorrect, int failedCases, int failedUnknown) {

    public EvalReport {
        perKind = List.copyOf(perKind);
        confusions = List.copyOf(confusions);
        wrong = List.copyOf(wrong);
    }

    public double accuracy() {
        return cases == 0 ? 0 : correct / (double) cases;
    }

    public double hardAccuracy() {
        return hardCases == 0 ? 0 : hardCorrect / (double) hardCases;
    }

    public double clearAccuracy() {
        return clearCases == 0 ? 0 : clearCorrect / (double) clearCases;
    }

    /** Share of the cases with a failure cause that got no finding ({@code unknown}). */
    public double unknownRateOnFailed() {
        return failedCases == 0 ? 0 : failedUnknown / (double) failedCases;
    }

    /**
     * Scores of one label.
     *
     * @param support how many cases carry this label
     * @param predicted how many cases were predicted as this label
     */
    public record KindMetrics(String kind, int support, int predicted, int truePositives) {
        public double precision() {
            return predicted == 0 ? 0 : truePositives / (double) predicted;
        }

        public double recall() {
            return support == 0 ? 0 : truePositives / (double) support;
        }

        public double f1() {
            double p = precision();
            double r = recall();
            return p + r == 0 ? 0 : 2 * p * r / (p + r);
        }
    }

    /** A cell of the confusion matrix off its diagonal: {@code count} cases labelled {@code label} came out {@code predicted}. */
    public record Confusion(String label, String predicted, int count, List<String> ids) {
        public Confusion {
            ids = List.copyOf(ids);
        }
    }

    /**
     * Retrieval scores: a retrieved fix note is relevant when its kind is the label or refines it.
     *
     * @param k how many notes were asked for per case (MRR counts ranks up to k)
     */
    public record Retrieval(String retriever, int k, double recallAt1, double recallAt3, double mrr) {
    }

    /** A misclassified case. */
    public record WrongCase(String id, int line, String label, String predicted, double confidence, boolean hard,
                            String notes) {
    }
}
