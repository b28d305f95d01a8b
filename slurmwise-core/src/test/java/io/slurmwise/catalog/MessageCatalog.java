package io.slurmwise.catalog;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.taxonomy.Taxonomy;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalogs of fixed messages written in five tab-separated columns (who prints it, text, verdict, why, source):
 * {@code knowledge/library-messages.tsv} and {@code knowledge/site-messages.tsv}. Their rows, the checks every row
 * must pass whatever the catalog, and the one way a row's log is classified and a wrong answer reported.
 */
final class MessageCatalog {

    /** Verdicts that name no failure kind. */
    static final List<String> NO_KIND = List.of("benign", "none");

    /** One catalog row: a fixed message, who prints it, and what it means. */
    record Entry(String file, int line, String owner, String text, String verdict, String why, String source)
            implements CatalogTsv.Verdict {
        @Override
        public List<String> noKind() {
            return NO_KIND;
        }

        @Override
        public String toString() {
            return file + ":" + line + " " + owner + " '" + text + "' -> " + verdict;
        }
    }

    private MessageCatalog() {
    }

    static List<Entry> read(Path file) {
        String name = file.getFileName().toString();
        return CatalogTsv.rows(file, 5).stream()
                .map(r -> new Entry(name, r.line(), r.fields()[0], r.fields()[1], r.fields()[2], r.fields()[3],
                        r.fields()[4]))
                .toList();
    }

    /** The checks every row passes: a verdict that is a kind or one of {@link #NO_KIND}, and no blank field. */
    static void checkFields(Entry e, Taxonomy taxonomy) {
        assertThat(!e.isKind() || taxonomy.find(e.verdict()).isPresent())
                .as("%s: the verdict must be a kind id or one of %s", e, NO_KIND).isTrue();
        assertThat(e.owner()).as("%s: who prints it", e).isNotBlank();
        assertThat(e.why()).as("%s: why", e).isNotBlank();
        assertThat(e.source()).as("%s: source", e).isNotBlank();
    }

    /** Classifies {@code log} with {@code facts}; a kind other than the row's is added to {@code wrong}. */
    static void check(Classifier classifier, Entry e, String log, JobFacts facts, List<String> wrong) {
        Finding f = classifier.classifyText(facts, log);
        if (!f.kindId().equals(e.expectedKind())) {
            wrong.add(e + ": classified " + f.kindId() + " (" + f.confidence() + ") for '"
                    + log.replace("\u001b", "\\e").replace("\r", "\\r").replace("\n", "\\n") + "'"
                    + (facts.state() == null ? "" : " in a " + facts.state() + " 1:0 record"));
        }
    }
}
