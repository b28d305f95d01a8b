package io.slurmwise.catalog;

import java.nio.file.Path;
import java.util.List;

/** Reads {@code knowledge/library-messages.tsv} (format in its header). */
final class LibraryCatalog {

    static final Path CATALOG = Path.of("..", "knowledge", "library-messages.tsv");
    /** Verdicts that name no failure kind. */
    static final List<String> NO_KIND = List.of("benign", "none");

    /** One catalog row: a library's fixed message and what it means. */
    record Entry(int line, String library, String text, String verdict, String why, String source)
            implements CatalogTsv.Verdict {
        @Override
        public List<String> noKind() {
            return NO_KIND;
        }

        @Override
        public String toString() {
            return "library-messages.tsv:" + line + " " + library + " '" + text + "' -> " + verdict;
        }
    }

    private LibraryCatalog() {
    }

    static List<Entry> entries() {
        return CatalogTsv.rows(CATALOG, 5).stream()
                .map(r -> new Entry(r.line(), r.fields()[0], r.fields()[1], r.fields()[2], r.fields()[3], r.fields()[4]))
                .toList();
    }
}
