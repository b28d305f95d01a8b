package io.slurmwise.catalog;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
        MessageCatalog.Checked c = MessageCatalog.checkEvery(WorkflowCatalog.entries(), TAXONOMY, CLASSIFIER,
                WorkflowCatalogTest::logs, JobFacts.NONE);
        long blocks = c.entries().stream().filter(e -> e.text().contains("\\n")).count();
        c.report("Workflow message catalog: " + c.entries().size() + " entries (" + blocks + " reports of several lines), "
                + c.toKind() + " to a kind; by manager " + c.byOwner() + "; by verdict " + c.byVerdict());
    }

    /** The row in every arrival form and, for a report of several lines, those lines as a log in every form. */
    static List<String> logs(MessageCatalog.Entry e) {
        List<String> forms = new ArrayList<>(LogForms.of(e.text()));
        if (e.text().contains("\\n")) {
            forms.addAll(LogForms.of(Arrays.asList(e.text().split("\\\\n", -1))));
        }
        return forms;
    }
}
