package io.slurmwise.catalog;

import java.nio.file.Path;
import java.util.List;

/** Reads {@code knowledge/slurm-messages.tsv} and {@code knowledge/slurm-source-strings.tsv} (formats in their headers). */
final class SlurmCatalog {

    static final Path CATALOG = Path.of("..", "knowledge", "slurm-messages.tsv");
    static final Path SOURCE_STRINGS = Path.of("..", "knowledge", "slurm-source-strings.tsv");
    /** Verdicts that name no failure kind. */
    static final List<String> NO_KIND = List.of("waiting", "benign", "none");

    /** One catalog row: a SLURM string and what it means. */
    record Entry(int line, String type, String symbols, String text, String verdict, String why, String releases,
                 String source) implements CatalogTsv.Verdict {
        @Override
        public List<String> noKind() {
            return NO_KIND;
        }

        @Override
        public String toString() {
            return "slurm-messages.tsv:" + line + " " + type + " '" + text + "' -> " + verdict;
        }
    }

    /** One extracted source string. */
    record SourceString(String type, String symbol, String text, String releases) {
    }

    private SlurmCatalog() {
    }

    static List<Entry> entries() {
        return CatalogTsv.rows(CATALOG, 7).stream()
                .map(r -> {
                    String[] f = r.fields();
                    return new Entry(r.line(), f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
                })
                .toList();
    }

    static List<SourceString> sourceStrings() {
        return CatalogTsv.rows(SOURCE_STRINGS, 0).stream()
                .map(r -> new SourceString(r.fields()[0], r.fields()[1], r.fields()[2], r.fields()[3]))
                .toList();
    }

    /** The header line naming the SchedMD/slurm tags the strings came from. */
    static String sourceTags() {
        return CatalogTsv.lines(SOURCE_STRINGS).stream().filter(l -> l.contains("slurm-")).findFirst().orElse("");
    }
}
