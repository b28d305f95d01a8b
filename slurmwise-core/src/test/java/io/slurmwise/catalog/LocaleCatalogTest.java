package io.slurmwise.catalog;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every row of the locale catalog (the C library's, bash's and coreutils' failure messages in the user's language) is
 * classified as the kind its English msgid maps to, through the real classifier, alone and as the log of a job that
 * failed with exit code 1, in the forms logs really arrive in (a line the notes ignore in English, such as an unreadable
 * {@code .bashrc}, is ignored in every language too); and every row names a locale and the po file it came from.
 */
class LocaleCatalogTest {

    static final Taxonomy TAXONOMY = Taxonomy.load(null);
    static final Classifier CLASSIFIER = new Classifier(TAXONOMY);
    static final JobFacts FAILED = JobFacts.NONE.withState(JobState.FAILED).withExitCode(ExitCode.parse("1:0"));

    @Test
    void everyCatalogEntryIsClassifiedAsItsMappedKind() {
        List<LocaleCatalog.Row> rows = LocaleCatalog.rows();
        MessageCatalog.Checked c = MessageCatalog.checkEvery(LocaleCatalog.entries(), TAXONOMY, CLASSIFIER,
                e -> LogForms.of(e.text()), JobFacts.NONE, FAILED);
        Map<String, Integer> byLocale = LocaleCatalog.byLocale(rows);
        c.report("Locale message catalog: " + c.entries().size() + " entries in " + byLocale.size() + " locales, "
                + c.toKind() + " to a kind; by program " + c.byOwner() + "; by verdict " + c.byVerdict()
                + "; by locale " + byLocale);
    }

    @Test
    void everyRowNamesItsLocaleAndItsPoFile() {
        for (LocaleCatalog.Row r : LocaleCatalog.rows()) {
            assertThat(r.locales()).as("%s: locale", r.entry()).allMatch(l -> l.matches("[a-z]{2}(_[A-Z]{2})?"));
            assertThat(r.entry().source()).as("%s: the po file or translation it was read from", r.entry())
                    .containsAnyOf(".po", "translation");
        }
    }
}
