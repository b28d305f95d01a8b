package io.slurmwise.catalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The knowledge catalogs' TSV files: one row a line, {@code #} comments and blank lines skipped. */
final class CatalogTsv {

    /** One data row: its 1-based line number and its tab-separated fields. */
    record Row(int line, String[] fields) {
    }

    /** A catalog row's verdict: a failure kind id, or one of the catalog's verdicts that name no kind. */
    interface Verdict {
        String verdict();

        List<String> noKind();

        default boolean isKind() {
            return !noKind().contains(verdict());
        }

        /** The failure kind the classifier must answer: the verdict, or {@code unknown} for no kind. */
        default String expectedKind() {
            return isKind() ? verdict() : "unknown";
        }
    }

    private CatalogTsv() {
    }

    /** The data rows of {@code file}; with {@code fields > 0}, a row with another field count is an error naming its line. */
    static List<Row> rows(Path file, int fields) {
        List<String> lines = lines(file);
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isBlank() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\t", -1);
            if (fields > 0 && f.length != fields) {
                throw new IllegalStateException(file + ":" + (i + 1) + ": expected " + fields
                        + " tab-separated fields, got " + f.length);
            }
            out.add(new Row(i + 1, f));
        }
        return out;
    }

    static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
