package io.slurmwise.catalog;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every row of the workflow manager catalog is classified as the kind it maps to (or as no kind) through the real
 * classifier, from the text alone (the manager's log, with no job record), in the forms logs really arrive in. A report
 * of several lines (its lines joined by the two characters {@code \n}) is checked as those lines in a log and as the one
 * string a wrapper carries them in; its lines that matter have rows of their own, so each line is checked alone too.
 */
class WorkflowCatalogTest {

    static final Taxonomy TAXONOMY = Taxonomy.load(null);
    static final Classifier CLASSIFIER = new Classifier(TAXONOMY);

    @Test
    void everyCatalogEntryIsClassifiedAsItsMappedKind() {
        List<MessageCatalog.Entry> entries = WorkflowCatalog.entries();
        List<String> wrong = new ArrayList<>();
        Set<String> texts = new HashSet<>();
        Map<String, Integer> byManager = new TreeMap<>();
        Map<String, Integer> byVerdict = new TreeMap<>();
        int blocks = 0;
        for (MessageCatalog.Entry e : entries) {
            MessageCatalog.checkFields(e, TAXONOMY);
            assertThat(texts.add(e.text())).as("%s: the same text twice", e).isTrue();
            List<String> forms = new ArrayList<>(LogForms.of(e.text()));
            if (e.text().contains("\\n")) {
                forms.addAll(LogForms.of(Arrays.asList(e.text().split("\\\\n", -1))));
                blocks++;
            }
            for (String form : forms) {
                MessageCatalog.check(CLASSIFIER, e, form, JobFacts.NONE, wrong);
            }
            byManager.merge(e.owner(), 1, Integer::sum);
            byVerdict.merge(e.verdict(), 1, Integer::sum);
        }
        System.out.println("Workflow message catalog: " + entries.size() + " entries (" + blocks
                + " reports of several lines), " + entries.stream().filter(MessageCatalog.Entry::isKind).count()
                + " to a kind; by manager " + byManager + "; by verdict " + byVerdict);
        wrong.forEach(w -> System.out.println("WRONG " + w));
        assertThat(wrong).as("catalog entries classified wrongly").isEmpty();
    }
}
