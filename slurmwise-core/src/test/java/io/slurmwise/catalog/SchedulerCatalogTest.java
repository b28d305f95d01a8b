package io.slurmwise.catalog;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

/**
 * Every row of the other batch systems' catalog (PBS, Torque and Moab, LSF, Grid Engine, Flux, HTCondor, Cray ALPS,
 * Fujitsu PJM) is classified as the kind it maps to (or as no kind) through the real classifier, from the text alone
 * (the job's output, a mail, an accounting command's line, with no SLURM job record), in the forms logs really arrive
 * in; a mail of several lines also as those lines in a log.
 */
class SchedulerCatalogTest {

    static final Taxonomy TAXONOMY = Taxonomy.load(null);
    static final Classifier CLASSIFIER = new Classifier(TAXONOMY);

    @Test
    void everyCatalogEntryIsClassifiedAsItsMappedKind() {
        MessageCatalog.Checked c = MessageCatalog.checkEvery(SchedulerCatalog.entries(), TAXONOMY, CLASSIFIER,
                WorkflowCatalogTest::logs, JobFacts.NONE);
        c.report("Scheduler message catalog: " + c.entries().size() + " entries, " + c.toKind() + " to a kind; by system "
                + c.byOwner() + "; by verdict " + c.byVerdict());
    }
}
