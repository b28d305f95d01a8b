package io.slurmwise.eval;

import io.slurmwise.classify.Classifier;
import io.slurmwise.diagnose.NoteLookupRetriever;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Taxonomy;
import io.slurmwise.testing.AccuracyFloor;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The evaluation harness: the bundled benchmark, a case file it has never seen, and case-file validation. */
class EvaluatorTest {

    static final Taxonomy TAXONOMY = Taxonomy.load(null);
    static final Evaluator EVALUATOR = new Evaluator(new Classifier(TAXONOMY), new NoteLookupRetriever());

    @Test
    void theBundledBenchmarkKeepsItsShape() {
        List<BenchmarkCase> all = CaseFile.bundled(TAXONOMY);
        assertThat(all).hasSizeGreaterThanOrEqualTo(150);
        assertThat(all.stream().filter(BenchmarkCase::hard).count()).isGreaterThanOrEqualTo(30);
        assertThat(all).allSatisfy(c -> assertThat(c.source()).isNotBlank());
        Set<String> labels = all.stream().map(BenchmarkCase::label).collect(Collectors.toSet());
        Set<String> rootKinds = TAXONOMY.kinds().stream().filter(k -> k.parent() == null && !k.isUnknown())
                .map(FailureKind::id).collect(Collectors.toSet());
        assertThat(labels).containsAll(rootKinds).contains(BenchmarkCase.NONE);
        assertThat(Evaluator.split(all, "dev")).isNotEmpty();
        assertThat(Evaluator.split(all, "test")).isNotEmpty();
        assertThat(Evaluator.split(all, "dev").size() + Evaluator.split(all, "test").size()).isEqualTo(all.size());
    }

    @Test
    void scoresTheDevSplitItIsTunedOn() {
        List<BenchmarkCase> dev = Evaluator.split(CaseFile.bundled(TAXONOMY), "dev");
        EvalReport r = EVALUATOR.evaluate("bundled", "dev", dev);
        assertThat(r.cases()).isEqualTo(dev.size());
        // floors against regressions (their history in AccuracyFloor); the misses are listed in benchmark/README.md
        assertThat(r.accuracy()).as("dev accuracy; wrong: " + r.wrong()).isGreaterThanOrEqualTo(AccuracyFloor.DEV);
        assertThat(r.clearAccuracy()).as("dev accuracy on clear cases; wrong: " + r.wrong())
                .isGreaterThanOrEqualTo(AccuracyFloor.DEV_CLEAR);
        assertThat(r.wrong()).hasSize(r.cases() - r.correct());
        // the note-lookup retriever returns the finding's own note, so retrieval is right exactly when the kind is
        assertThat(r.retrieval().recallAt1()).isEqualTo(r.accuracy());
        int support = r.perKind().stream().mapToInt(EvalReport.KindMetrics::support).sum();
        int predicted = r.perKind().stream().mapToInt(EvalReport.KindMetrics::predicted).sum();
        assertThat(support).isEqualTo(r.cases());
        assertThat(predicted).isEqualTo(r.cases());
    }

    @Test
    void scoresAFileItHasNeverSeen() throws IOException {
        List<BenchmarkCase> cases;
        try (Reader in = new InputStreamReader(getClass().getResourceAsStream("unseen-cases.jsonl"), StandardCharsets.UTF_8)) {
            cases = CaseFile.read("unseen-cases.jsonl", in, TAXONOMY);
        }
        assertThat(cases).hasSize(9).allSatisfy(c -> assertThat(c.split()).isEqualTo("test"));
        EvalReport r = EVALUATOR.evaluate("unseen-cases.jsonl", "test", Evaluator.split(cases, "test"));
        // everything right but the deliberately mislabelled case; SIGILL counts for its parent label segfault
        assertThat(r.correct()).as(r.wrong().toString()).isEqualTo(8);
        assertThat(r.accuracy()).isEqualTo(8 / 9.0);
        assertThat(r.wrong()).singleElement().satisfies(w -> {
            assertThat(w.id()).isEqualTo("unseen-mislabel-1");
            assertThat(w.line()).isEqualTo(9);
            assertThat(w.predicted()).isEqualTo("cuda_oom");
        });
        assertThat(r.confusions()).singleElement().satisfies(c -> {
            assertThat(c.label()).isEqualTo("segfault");
            assertThat(c.predicted()).isEqualTo("cuda_oom");
            assertThat(c.ids()).containsExactly("unseen-mislabel-1");
        });
        EvalReport.KindMetrics seg = r.perKind().stream().filter(m -> m.kind().equals("segfault")).findFirst().orElseThrow();
        assertThat(seg.support()).isEqualTo(2);
        assertThat(seg.recall()).isEqualTo(0.5);
        assertThat(seg.precision()).isEqualTo(1.0);
        EvalReport.KindMetrics cudaOom = r.perKind().stream().filter(m -> m.kind().equals("cuda_oom")).findFirst().orElseThrow();
        assertThat(cudaOom.precision()).isEqualTo(0.5);
        assertThat(r.retrieval().recallAt1()).isEqualTo(8 / 9.0);
        assertThat(r.retrieval().mrr()).isEqualTo(8 / 9.0);
        assertThat(r.hardCases()).isEqualTo(1);
        assertThat(r.hardCorrect()).isEqualTo(1);
    }

    @Test
    void readsWhatAFileCopiedFromSacctsTableOrAShellMayHold() throws IOException {
        // sacct's default table cuts states at 10 characters ("OUT_OF_ME+"); a shell reports a bare exit status
        String file = String.join("\n",
                "{\"id\": \"t1\", \"label\": \"oom\", \"sacct_state\": \"OUT_OF_ME+\", \"exit_code\": \"0:125\", \"log\": \"\", \"source\": \"s\", \"notes\": \"\"}",
                "{\"id\": \"t2\", \"label\": \"oom\", \"sacct_state\": \"FAILED\", \"exit_code\": 137, \"log\": \"Killed\", \"source\": \"s\", \"notes\": \"\"}",
                "{\"id\": \"t3\", \"label\": \"cancelled\", \"sacct_state\": \"CANCELLED+\", \"exit_code\": null, \"log\": \"\", \"source\": \"s\", \"notes\": \"\"}",
                "");
        List<BenchmarkCase> cases = CaseFile.read("pasted.jsonl", new java.io.StringReader(file), TAXONOMY);
        assertThat(cases).extracting(c -> c.facts().state()).containsExactly(io.slurmwise.job.JobState.OUT_OF_MEMORY,
                io.slurmwise.job.JobState.FAILED, io.slurmwise.job.JobState.CANCELLED);
        assertThat(cases.get(1).facts().exitCode()).hasToString("137:0");
        EvalReport r = EVALUATOR.evaluate("pasted.jsonl", "test", cases);
        assertThat(r.correct()).as(r.wrong().toString()).isEqualTo(3);
    }

    @Test
    void reportsClearCasesAndUnknownsOnFailedCasesApart() throws IOException {
        // a case whose text does not show its cause is marked "clear": false; none-labelled cases are not failures
        String file = String.join("\n",
                "{\"id\": \"c1\", \"label\": \"oom\", \"sacct_state\": null, \"exit_code\": null, \"log\": \"slurmstepd: error: Detected 1 oom-kill event(s) in StepId=7.batch.\", \"source\": \"s\", \"notes\": \"\"}",
                "{\"id\": \"c2\", \"label\": \"node_fail\", \"sacct_state\": null, \"exit_code\": null, \"log\": \"Exit reason: FAILED\", \"source\": \"s\", \"notes\": \"hard: the thread blames a node\", \"clear\": false}",
                "{\"id\": \"c3\", \"label\": \"none\", \"sacct_state\": \"COMPLETED\", \"exit_code\": \"0:0\", \"log\": \"all done\", \"source\": \"s\", \"notes\": \"\"}",
                "");
        List<BenchmarkCase> cases = CaseFile.read("clear.jsonl", new StringReader(file), TAXONOMY);
        assertThat(cases).extracting(BenchmarkCase::clear).containsExactly(true, false, true);
        EvalReport r = EVALUATOR.evaluate("clear.jsonl", "test", cases);
        assertThat(r.correct()).isEqualTo(2);
        assertThat(r.clearCases()).isEqualTo(2);
        assertThat(r.clearCorrect()).isEqualTo(2);
        assertThat(r.clearAccuracy()).isEqualTo(1.0);
        assertThat(r.failedCases()).isEqualTo(2);
        assertThat(r.failedUnknown()).isEqualTo(1);
        assertThat(r.unknownRateOnFailed()).isEqualTo(0.5);
        String bad = "{\"id\": \"x\", \"label\": \"oom\", \"sacct_state\": null, \"exit_code\": null, \"log\": \"\", \"source\": \"s\", \"notes\": \"\", \"clear\": \"no\"}";
        assertThatThrownBy(() -> CaseFile.read("bad.jsonl", new StringReader(bad), TAXONOMY))
                .hasMessageContaining("bad.jsonl:1: 'clear' must be true or false");
    }

    @Test
    void reportsEveryProblemOfABadFileWithItsLineNumber() {
        String file = String.join("\n",
                "{\"id\": \"a\", \"label\": \"oom\", \"sacct_state\": null, \"exit_code\": null, \"log\": \"Killed\", \"source\": \"s\", \"notes\": \"\"}",
                "{\"id\": \"b\", \"label\": \"oom\", \"log\": \"x\"",
                "{\"id\": \"c\", \"label\": \"oomm\", \"sacct_state\": null, \"exit_code\": null, \"log\": \"\", \"source\": \"s\", \"notes\": \"\"}",
                "{\"id\": \"d\", \"label\": \"oom\", \"exit_code\": \"0:125\", \"log\": \"\", \"source\": \"s\", \"notes\": \"\"}",
                "{\"id\": \"a\", \"label\": \"none\", \"sacct_state\": \"COMPLETED\", \"exit_code\": \"zero\", \"log\": \"\", \"source\": \"s\", \"notes\": \"\", \"split\": \"train\"}",
                "[1, 2]",
                "{\"id\": \"f\", \"label\": \"oom\", \"sacct_state\": \"RUNNING_LATE\", \"exit_code\": null, \"log\": 7, \"source\": \"s\", \"notes\": \"\", \"elapsed\": \"soon\"}",
                "");
        assertThatThrownBy(() -> CaseFile.read("bad.jsonl", new StringReader(file), TAXONOMY))
                .isInstanceOf(CaseFileException.class)
                .satisfies(e -> assertThat(((CaseFileException) e).problems()).containsExactly(
                        "bad.jsonl:2:39: invalid JSON: Unexpected end-of-input: expected close marker for Object",
                        "bad.jsonl:3: unknown label 'oomm'; use a kind of the taxonomy or 'none' (no failure cause): "
                                + String.join(", ", knownLabels()),
                        "bad.jsonl:4: missing key 'sacct_state'",
                        "bad.jsonl:5: 'split' must be \"dev\" or \"test\", not \"train\"",
                        "bad.jsonl:5: 'exit_code' \"zero\" is not SLURM's code:signal (e.g. 0:125, 1:0)",
                        "bad.jsonl:6: expected a JSON object ({\"id\": ..., \"label\": ...}), found an array",
                        "bad.jsonl:7: 'log' must be a string",
                        "bad.jsonl:7: 'sacct_state' \"RUNNING_LATE\" is not a SLURM job state (e.g. FAILED, TIMEOUT, OUT_OF_MEMORY, CANCELLED by 1001)",
                        "bad.jsonl:7: 'elapsed' \"soon\" is not a SLURM duration (00:01:19, 1-02:03:04)"))
                .hasMessageStartingWith("bad.jsonl is not a valid benchmark file (9 problems");
    }

    @Test
    void duplicateIdsAndEmptyFilesAreProblemsToo() {
        String dup = "{\"id\": \"a\", \"label\": \"oom\", \"sacct_state\": null, \"exit_code\": null, \"log\": \"\", \"source\": \"s\", \"notes\": \"\"}\n";
        assertThatThrownBy(() -> CaseFile.read("dup.jsonl", new StringReader(dup + "\n" + dup), TAXONOMY))
                .hasMessageContaining("dup.jsonl:3: duplicate id 'a' (first on line 1)");
        assertThatThrownBy(() -> CaseFile.read("empty.jsonl", new StringReader("\n"), TAXONOMY))
                .hasMessageContaining("empty.jsonl: no cases");
    }

    private static List<String> knownLabels() {
        return java.util.stream.Stream.concat(TAXONOMY.kinds().stream().filter(k -> !k.isUnknown()).map(FailureKind::id),
                java.util.stream.Stream.of("none")).sorted().toList();
    }
}
