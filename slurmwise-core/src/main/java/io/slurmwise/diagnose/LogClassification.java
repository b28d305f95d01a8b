package io.slurmwise.diagnose;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;

import java.util.List;
import java.util.Objects;

/**
 * A log read without a cluster: the rules' finding, the fix notes the retriever gives for it (less the items for an
 * error the log does not quote), and the template's explanation. The one pipeline behind {@code slurmwise classify}, the {@code classify_log} tool and {@code eval},
 * so the three always agree.
 *
 * <pre>{@code
 * LogClassification c = LogClassification.of(sw.classifier(), sw.retriever(), JobFacts.NONE, logs, 3);
 * }</pre>
 */
public record LogClassification(Finding finding, List<FixNote> fixes, Explanation explanation) {

    /** Fix notes a classification carries unless asked for another count. */
    public static final int FIXES = 3;

    public LogClassification {
        Objects.requireNonNull(finding, "finding");
        fixes = List.copyOf(fixes);
    }

    /** Classifies the logs of one job with the facts known about it (or {@link JobFacts#NONE}). */
    public static LogClassification of(Classifier rules, Retriever retriever, JobFacts facts, List<LogTail> logs, int k) {
        Finding f = rules.classify(facts, logs);
        // no record to fit the fixes to, but the log says which need an error it does not quote (the JVM's heap)
        List<String> evidence = f.evidence().stream().map(io.slurmwise.classify.Evidence::text).toList();
        // bash's "line N: PATH: Permission denied" reads as a command it could not execute; without the script, a data
        // file's name says it was a redirect that could not write it, so the exec fix does not lead (DeniedPath)
        java.util.Set<String> misworded = io.slurmwise.patch.DeniedPath.readWithoutScript(evidence)
                .filter(io.slurmwise.patch.DeniedPath::written).map(d -> java.util.Set.of(d.evidence()))
                .orElse(java.util.Set.of());
        List<FixNote> fixes = FixOrder.byEvidence(new FixFitter(rules.taxonomy()).fitToLog(retriever.retrieve(f, null, k),
                evidence), f, List.of(), misworded);
        // a bare log has no job record to word around: the template, never a model, explains it
        return new LogClassification(f, fixes, new TemplateExplainer().explain(null, f, fixes));
    }

    /** As {@link #of}, for a text held in memory (a pasted log, a benchmark case). */
    public static LogClassification ofText(Classifier rules, Retriever retriever, JobFacts facts, String text, int k) {
        return of(rules, retriever, facts, List.of(LogTail.of(LogStream.STDERR, null, text)), k);
    }
}
