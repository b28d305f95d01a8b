package io.slurmwise.catalog;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.diagnose.PendingReasons;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every row of SLURM's message catalog is classified as the kind it maps to (or as no kind) through the real
 * classifier: errno strings and messages as the log line SLURM prints them, in the forms logs really arrive in
 * (lowercased, timestamped, prefixed, coloured, behind a progress bar); job state reasons as a pending record
 * carrying the reason (and, for the reasons of ended jobs, a failed record), which pending-reasons.tsv must
 * explain with a row of its own.
 */
class SlurmCatalogTest {

    static final Taxonomy TAXONOMY = Taxonomy.load(null);
    static final Classifier CLASSIFIER = new Classifier(TAXONOMY);
    static final PendingReasons PENDING = PendingReasons.bundled();

    @Test
    void everyCatalogEntryIsClassifiedAsItsMappedKind() {
        List<SlurmCatalog.Entry> entries = SlurmCatalog.entries();
        List<String> wrong = new ArrayList<>();
        Map<String, Integer> counts = new TreeMap<>();
        for (SlurmCatalog.Entry e : entries) {
            assertThat(!e.isKind() || TAXONOMY.find(e.verdict()).isPresent())
                    .as("%s: the verdict must be a kind id or one of %s", e, SlurmCatalog.NO_KIND).isTrue();
            assertThat(e.why()).as("%s: why", e).isNotBlank();
            switch (e.type()) {
                case "errno", "message", "site" -> {
                    for (String form : forms(e)) {
                        check(e, form, JobFacts.NONE, wrong);
                    }
                }
                case "reason" -> {
                    check(e, "Reason=" + e.text(), JobFacts.NONE.withState(JobState.PENDING).withPendingReason(e.text()), wrong);
                    if (e.symbols().startsWith("FAIL_") && !e.verdict().equals("waiting")) {
                        check(e, "Reason=" + e.text(), JobFacts.NONE.withState(JobState.FAILED)
                                .withExitCode(ExitCode.parse("1:0")).withPendingReason(e.text()), wrong);
                    }
                    if (!PENDING.explicitly(e.text()).isPresent()) {
                        wrong.add(e + ": pending-reasons.tsv has no row for it");
                    }
                }
                default -> wrong.add(e + ": unknown type " + e.type());
            }
            counts.merge(e.type() + " " + (e.isKind() ? "kind" : e.verdict()), 1, Integer::sum);
        }
        System.out.println("SLURM message catalog: " + entries.size() + " entries classified as mapped "
                + counts + " (" + entries.stream().filter(SlurmCatalog.Entry::isKind).count() + " to a kind)");
        wrong.forEach(w -> System.out.println("WRONG " + w));
        assertThat(wrong).as("catalog entries classified wrongly").isEmpty();
    }

    /**
     * An errno string as the bare text and as SLURM prints it; a message line in the forms logs arrive in, and a client
     * command's line also as a site prints it that runs the real binary under another name (sbatch, srun and salloc
     * name themselves by argv[0]'s base name: {@code sbatch.real: error: ...}).
     */
    static List<String> forms(SlurmCatalog.Entry e) {
        String t = e.text();
        if (e.type().equals("errno")) {
            return List.of(t, "srun: error: Unable to create step for job 4242: " + t,
                    "sbatch: error: Batch job submission failed: " + t.toLowerCase(java.util.Locale.ROOT),
                    "sbatch.real: error: Batch job submission failed: " + t);
        }
        java.util.regex.Matcher command = CLIENT_COMMAND.matcher(t);
        if (command.find()) {
            List<String> forms = new java.util.ArrayList<>(LogForms.of(t));
            forms.add(command.replaceFirst("$1.real:"));
            return forms;
        }
        return LogForms.of(t);
    }

    /** A line that sbatch, srun or salloc prints under its own name. */
    private static final java.util.regex.Pattern CLIENT_COMMAND = java.util.regex.Pattern.compile("^(sbatch|srun|salloc):");

    private static void check(SlurmCatalog.Entry e, String log, JobFacts facts, List<String> wrong) {
        String text = e.type().equals("reason") ? "" : log;
        Finding f = CLASSIFIER.classifyText(facts, text);
        if (!f.kindId().equals(e.expectedKind())) {
            wrong.add(e + ": classified " + f.kindId() + " (" + f.confidence() + ") for " + describe(log, facts));
        }
    }

    private static String describe(String log, JobFacts facts) {
        return facts.state() == null ? "'" + log.replace("\u001b", "\\e").replace("\r", "\\r") + "'"
                : facts.state() + " record with " + log;
    }
}
