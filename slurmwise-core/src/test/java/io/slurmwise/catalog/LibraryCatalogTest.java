package io.slurmwise.catalog;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import io.slurmwise.taxonomy.Category;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every row of the library message catalog is classified as the kind it maps to (or as no kind) through the real
 * classifier, alone and as the log of a job that failed with exit code 1, in the forms logs really arrive in; and
 * every runtime kind the taxonomy ships is named by at least one row, so a kind nobody catalogued shows up here.
 */
class LibraryCatalogTest {

    static final Taxonomy TAXONOMY = Taxonomy.load(null);
    static final Classifier CLASSIFIER = new Classifier(TAXONOMY);
    static final JobFacts FAILED = JobFacts.NONE.withState(JobState.FAILED).withExitCode(ExitCode.parse("1:0"));

    @Test
    void everyCatalogEntryIsClassifiedAsItsMappedKind() {
        MessageCatalog.Checked c = MessageCatalog.checkEvery(LibraryCatalog.entries(), TAXONOMY, CLASSIFIER,
                e -> LogForms.of(e.text()), JobFacts.NONE, FAILED);
        c.report("Library message catalog: " + c.entries().size() + " entries, " + c.toKind() + " to a kind; by library "
                + c.byOwner() + "; by verdict " + c.byVerdict());
    }

    @Test
    void everyRuntimeKindIsNamedByTheCatalog() {
        Set<String> named = new TreeSet<>();
        LibraryCatalog.entries().forEach(e -> named.add(e.verdict()));
        Set<String> missing = new TreeSet<>();
        for (FailureKind k : TAXONOMY.kinds()) {
            if (k.category() == Category.RUNTIME && !k.id().equals("unknown") && !named.contains(k.id())) {
                missing.add(k.id());
            }
        }
        assertThat(missing).as("runtime kinds no library message in knowledge/library-messages.tsv maps to").isEmpty();
    }
}
