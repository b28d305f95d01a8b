package io.slurmwise.eval;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.diagnose.FixNote;
import io.slurmwise.diagnose.LogClassification;
import io.slurmwise.diagnose.NoteLookupRetriever;
import io.slurmwise.diagnose.Retriever;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Taxonomy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Scores the classifier and a retriever on labeled cases: accuracy, macro-F1, per-kind precision and recall, the
 * confusions, and Recall@1, Recall@3 and MRR of the retrieved fix notes. A prediction is right when its kind or
 * a parent of it equals the label ({@link Taxonomy#isA}); label {@code none} expects {@code unknown}.
 *
 * <pre>{@code
 * Evaluator e = new Evaluator(classifier, new NoteLookupRetriever());
 * EvalReport r = e.evaluate("cases.jsonl", "test", CaseFile.bundled(taxonomy));
 * r.accuracy();
 * }</pre>
 */
public final class Evaluator {

    /** Fix notes asked for per case; MRR counts the first relevant one up to this rank. */
    public static final int K = 5;

    private final Classifier classifier;
    private final Retriever retriever;
    private final Taxonomy taxonomy;

    public Evaluator(Classifier classifier, Retriever retriever) {
        this.classifier = Objects.requireNonNull(classifier, "classifier");
        this.retriever = retriever == null ? new NoteLookupRetriever() : retriever;
        this.taxonomy = classifier.taxonomy();
    }

    /** Only the cases of a split: {@code dev}, {@code test}, or {@code all}. */
    public static List<BenchmarkCase> split(List<BenchmarkCase> cases, String split) {
        if (split == null || split.equals("all")) {
            return cases;
        }
        return cases.stream().filter(c -> c.split().equals(split)).toList();
    }

    public EvalReport evaluate(String source, String split, List<BenchmarkCase> cases) {
        int correct = 0;
        int hard = 0;
        int hardCorrect = 0;
        double r1 = 0;
        double r3 = 0;
        double rr = 0;
        Map<String, int[]> counts = new TreeMap<>(); // kind -> {support, predicted, tp}
        Map<String, List<String>> confusion = new LinkedHashMap<>();
        List<EvalReport.WrongCase> wrong = new ArrayList<>();
        for (BenchmarkCase c : cases) {
            LogClassification read = LogClassification.ofText(classifier, retriever, c.facts(), c.log(), K);
            Finding f = read.finding();
            boolean right = taxonomy.isA(f.kindId(), c.expectedKind());
            String predictedLabel = right ? c.label() : label(f.kindId());
            counts.computeIfAbsent(c.label(), k -> new int[3])[0]++;
            counts.computeIfAbsent(predictedLabel, k -> new int[3])[1]++;
            if (right) {
                correct++;
                counts.get(c.label())[2]++;
            } else {
                confusion.computeIfAbsent(c.label() + "\u0000" + f.kindId(), k -> new ArrayList<>()).add(c.id());
                wrong.add(new EvalReport.WrongCase(c.id(), c.line(), c.label(), f.kindId(), f.confidence(), c.hard(),
                        c.notes()));
            }
            if (c.hard()) {
                hard++;
                hardCorrect += right ? 1 : 0;
            }
            int rank = firstRelevant(read.fixes(), c.expectedKind());
            r1 += rank == 1 ? 1 : 0;
            r3 += rank >= 1 && rank <= 3 ? 1 : 0;
            rr += rank >= 1 ? 1.0 / rank : 0;
        }
        List<EvalReport.KindMetrics> perKind = new ArrayList<>();
        double f1 = 0;
        for (Map.Entry<String, int[]> e : counts.entrySet()) {
            EvalReport.KindMetrics m = new EvalReport.KindMetrics(e.getKey(), e.getValue()[0], e.getValue()[1], e.getValue()[2]);
            perKind.add(m);
            f1 += m.f1();
        }
        List<EvalReport.Confusion> conf = new ArrayList<>();
        confusion.forEach((key, ids) -> {
            String[] lp = key.split("\u0000", 2);
            conf.add(new EvalReport.Confusion(lp[0], lp[1], ids.size(), ids));
        });
        conf.sort(Comparator.comparingInt(EvalReport.Confusion::count).reversed()
                .thenComparing(EvalReport.Confusion::label));
        int n = cases.size();
        return new EvalReport(source, split, n, correct, counts.isEmpty() ? 0 : f1 / counts.size(), perKind, conf,
                new EvalReport.Retrieval(retriever.name(), K, n == 0 ? 0 : r1 / n, n == 0 ? 0 : r3 / n,
                        n == 0 ? 0 : rr / n),
                wrong, hard, hardCorrect);
    }

    /** The label a predicted kind stands for: {@code none} for unknown, else its root kind. */
    private String label(String kind) {
        if (FailureKind.UNKNOWN.equals(kind)) {
            return BenchmarkCase.NONE;
        }
        String k = kind;
        for (int guard = 0; guard < 16; guard++) {
            String parent = taxonomy.find(k).map(FailureKind::parent).orElse(null);
            if (parent == null) {
                return k;
            }
            k = parent;
        }
        return k;
    }

    /** 1-based rank of the first note whose kind is (or refines) the expected kind; 0 when none is. */
    private int firstRelevant(List<FixNote> notes, String expected) {
        for (int i = 0; i < notes.size(); i++) {
            if (taxonomy.isA(notes.get(i).kindId(), expected)) {
                return i + 1;
            }
        }
        return 0;
    }
}
