package io.slurmwise.kb;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Recall@1, Recall@3 and MRR of a ranking over labeled queries. A query is answered at the rank of the first
 * section whose note is one of its expected kinds (0 when none is in the top 10, counting 0 toward MRR).
 */
record RetrievalMetrics(String name, int n, double recall1, double recall3, double mrr, List<String> misses) {

    static final int DEPTH = 10;

    static RetrievalMetrics of(String name, List<LabeledQuery> queries, Function<LabeledQuery, List<Hit>> search) {
        double r1 = 0;
        double r3 = 0;
        double rr = 0;
        List<String> misses = new ArrayList<>();
        for (LabeledQuery q : queries) {
            List<Hit> hits = search.apply(q);
            int rank = rank(hits, q.expected());
            if (rank == 1) {
                r1++;
            } else {
                misses.add(q.id() + " rank " + rank + " (top: " + (hits.isEmpty() ? "-" : hits.get(0).chunk().id()) + ")");
            }
            if (rank >= 1 && rank <= 3) {
                r3++;
            }
            if (rank >= 1) {
                rr += 1.0 / rank;
            }
        }
        int n = queries.size();
        return new RetrievalMetrics(name, n, r1 / n, r3 / n, rr / n, misses);
    }

    static int rank(List<Hit> hits, Set<String> expected) {
        for (int i = 0; i < Math.min(DEPTH, hits.size()); i++) {
            if (expected.contains(hits.get(i).chunk().kindId())) {
                return i + 1;
            }
        }
        return 0;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%-46s n=%d  Recall@1 %.3f  Recall@3 %.3f  MRR %.3f%s", name, n, recall1,
                recall3, mrr, misses.isEmpty() ? "" : "\n    misses: " + String.join("; ", misses));
    }
}
