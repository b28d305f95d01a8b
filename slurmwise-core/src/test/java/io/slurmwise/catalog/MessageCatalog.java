package io.slurmwise.catalog;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.taxonomy.Taxonomy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalogs of fixed messages written in five tab-separated columns (who prints it, text, verdict, why, source):
 * {@code knowledge/library-messages.tsv}, {@code knowledge/site-messages.tsv},
 * {@code knowledge/workflow-messages.tsv} and {@code knowledge/scheduler-messages.tsv}. Their rows, the checks every
 * row must pass whatever the catalog, and the one way a row's logs are classified, counted and a wrong answer reported.
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

    /** What checking a whole catalog found: the wrong answers, and the rows by who prints them and by verdict. */
    record Checked(List<Entry> entries, List<String> wrong, Map<String, Integer> byOwner, Map<String, Integer> byVerdict) {

        long toKind() {
            return entries.stream().filter(Entry::isKind).count();
        }

        /** Prints {@code summary} and every wrong answer, then fails when there is one. */
        void report(String summary) {
            System.out.println(summary);
            wrong.forEach(w -> System.out.println("WRONG " + w));
            assertThat(wrong).as("catalog entries classified wrongly").isEmpty();
        }
    }

    /**
     * Checks every row: its fields, that no text is there twice, and each of the logs {@code logsOf} makes of it
     * classified with each of {@code facts}.
     */
    static Checked checkEvery(List<Entry> entries, Taxonomy taxonomy, Classifier classifier,
                              Function<Entry, List<String>> logsOf, JobFacts... facts) {
        List<String> wrong = new ArrayList<>();
        Set<String> texts = new HashSet<>();
        Map<String, Integer> byOwner = new TreeMap<>();
        Map<String, Integer> byVerdict = new TreeMap<>();
        for (Entry e : entries) {
            checkFields(e, taxonomy);
            assertThat(texts.add(e.text())).as("%s: the same text twice", e).isTrue();
            for (String log : logsOf.apply(e)) {
                for (JobFacts f : facts) {
                    check(classifier, e, log, f, wrong);
                }
            }
            byOwner.merge(e.owner(), 1, Integer::sum);
            byVerdict.merge(e.verdict(), 1, Integer::sum);
        }
        return new Checked(entries, wrong, byOwner, byVerdict);
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
