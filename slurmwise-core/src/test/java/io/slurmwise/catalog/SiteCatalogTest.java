package io.slurmwise.catalog;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;


/**
 * Every row of the site submission-filter catalog is classified as it is printed, in the forms logs really arrive in.
 * A refusal is the filter's line as sbatch and salloc print it ({@code sbatch: error: <text>}), alone and followed by
 * SLURM's own refusal line, and must be its kind. A line printed for an accepted job ({@code benign}) comes as sbatch and
 * salloc print it at info level ({@code sbatch: <text>}) before the job is submitted or granted, and must make no failure
 * kind; a refusal that names no failure of the job ({@code none}, a centre closed for maintenance) must make none alone.
 * A row from a centre's documentation that is a runtime line (its site ends in {@link SiteCatalog#LOG_MARKER}: a job's
 * output, a quota tool's line) is classified as it appears, alone and followed by a task's non-zero exit, and one that
 * names no failure kind must make none alone.
 */
class SiteCatalogTest {

    static final Taxonomy TAXONOMY = Taxonomy.load(null);
    static final Classifier CLASSIFIER = new Classifier(TAXONOMY);

    /** What srun prints when a task of the step ends non-zero (src/srun/step_launch.c): after a runtime row's line. */
    static final String TASK_EXIT = "srun: error: nid001234: task 0: Exited with exit code 1";

    @Test
    void everyCatalogEntryIsClassifiedAsItsMappedKind() {
        MessageCatalog.Checked c = MessageCatalog.checkEvery(SiteCatalog.entries(), TAXONOMY, CLASSIFIER,
                e -> logs(e).stream().flatMap(log -> LogForms.of(log).stream()).toList(), JobFacts.NONE);
        Set<String> sources = new HashSet<>();
        Map<String, Integer> bySite = new TreeMap<>();
        c.entries().forEach(e -> {
            sources.add(e.source().startsWith("http") ? e.source() : e.source().replaceFirst(":.*", ""));
            bySite.merge(SiteCatalog.site(e), 1, Integer::sum);
        });
        long runtime = c.entries().stream().filter(SiteCatalog::inJobLog).count();
        c.report("Site message catalog: " + c.entries().size() + " entries (" + runtime + " runtime lines) from "
                + bySite.size() + " sites (" + sources.size() + " repositories or pages); by verdict " + c.byVerdict()
                + "; by site " + bySite);
    }

    /**
     * The logs a row is printed in. A refusal (src/common/slurm_protocol_pack.c prints the filter's text at error
     * level, then sbatch.c "Batch job submission failed: %m", salloc "Job submit/allocate failed: %m"; slurm.ERROR is
     * "Unspecified error"); an accepted job's message (src/sbatch/sbatch.c and src/api/allocate.c print it at info
     * level, before "Submitted batch job" or "Granted job allocation"); a refusal that names no failure of the job
     * alone (SLURM's "Unspecified error" after it is the generic refusal, which knowledge/slurm-messages.tsv checks).
     */
    static List<List<String>> logs(MessageCatalog.Entry e) {
        String t = e.text();
        if (SiteCatalog.inJobLog(e)) {
            return e.isKind() ? List.of(List.of(t), List.of(t, TASK_EXIT)) : List.of(List.of(t));
        }
        if (e.verdict().equals("benign")) {
            return List.of(List.of("sbatch: " + t, "Submitted batch job 4242"),
                    List.of("salloc: " + t, "salloc: Granted job allocation 4242"));
        }
        if (!e.isKind()) {
            return List.of(List.of("sbatch: error: " + t), List.of("salloc: error: " + t));
        }
        return List.of(List.of("sbatch: error: " + t),
                List.of("sbatch: error: " + t, "sbatch: error: Batch job submission failed: Unspecified error"),
                List.of("salloc: error: " + t),
                List.of("salloc: error: " + t, "salloc: error: Job submit/allocate failed: Unspecified error"));
    }
}
