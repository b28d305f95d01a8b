package io.slurmwise.catalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads {@code knowledge/library-messages.tsv} (format in its header). */
final class LibraryCatalog {

    static final Path CATALOG = Path.of("..", "knowledge", "library-messages.tsv");
    /** Verdicts that name no failure kind. */
    static final List<String> NO_KIND = List.of("benign", "none");

    /** One catalog row: a library's fixed message and what it means. */
    record Entry(int line, String library, String text, String verdict, String why, String source) {
        boolean isKind() {
            return !NO_KIND.contains(verdict);
        }

        /** The failure kind the classifier must answer: the verdict, or {@code unknown} for no kind. */
        String expectedKind() {
            return isKind() ? verdict : "unknown";
        }

        @Override
        public String toString() {
            return "library-messages.tsv:" + line + " " + library + " '" + text + "' -> " + verdict;
        }
    }

    private LibraryCatalog() {
    }

    static List<Entry> entries() {
        List<String> lines;
        try {
            lines = Files.readAllLines(CATALOG, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isBlank() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\t", -1);
            if (f.length != 5) {
                throw new IllegalStateException(CATALOG + ":" + (i + 1) + ": expected 5 tab-separated fields, got " + f.length);
            }
            out.add(new Entry(i + 1, f[0], f[1], f[2], f[3], f[4]));
        }
        return out;
    }
}
