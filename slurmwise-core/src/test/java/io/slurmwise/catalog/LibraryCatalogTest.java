package io.slurmwise.catalog;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import io.slurmwise.taxonomy.Category;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
        List<MessageCatalog.Entry> entries = LibraryCatalog.entries();
        List<String> wrong = new ArrayList<>();
        Set<String> texts = new HashSet<>();
        Map<String, Integer> byLibrary = new TreeMap<>();
        Map<String, Integer> byVerdict = new TreeMap<>();
        for (MessageCatalog.Entry e : entries) {
            MessageCatalog.checkFields(e, TAXONOMY);
            assertThat(texts.add(e.text())).as("%s: the same text twice", e).isTrue();
            for (String form : LogForms.of(e.text())) {
                MessageCatalog.check(CLASSIFIER, e, form, JobFacts.NONE, wrong);
                MessageCatalog.check(CLASSIFIER, e, form, FAILED, wrong);
            }
            byLibrary.merge(e.owner(), 1, Integer::sum);
            byVerdict.merge(e.verdict(), 1, Integer::sum);
        }
        System.out.println("Library message catalog: " + entries.size() + " entries, "
                + entries.stream().filter(MessageCatalog.Entry::isKind).count() + " to a kind; by library "
                + byLibrary + "; by verdict " + byVerdict);
        wrong.forEach(w -> System.out.println("WRONG " + w));
        assertThat(wrong).as("catalog entries classified wrongly").isEmpty();
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
