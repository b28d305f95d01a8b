package io.slurmwise.catalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads {@code knowledge/slurm-messages.tsv} and {@code knowledge/slurm-source-strings.tsv} (formats in their headers). */
final class SlurmCatalog {

    static final Path CATALOG = Path.of("..", "knowledge", "slurm-messages.tsv");
    static final Path SOURCE_STRINGS = Path.of("..", "knowledge", "slurm-source-strings.tsv");
    /** Verdicts that name no failure kind. */
    static final List<String> NO_KIND = List.of("waiting", "benign", "none");

    /** One catalog row: a SLURM string and what it means. */
    record Entry(int line, String type, String symbols, String text, String verdict, String why, String releases,
                 String source) {
        boolean isKind() {
            return !NO_KIND.contains(verdict);
        }

        /** The failure kind the classifier must answer: the verdict, or {@code unknown} for no kind. */
        String expectedKind() {
            return isKind() ? verdict : "unknown";
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
        List<Entry> out = new ArrayList<>();
        List<String> lines = read(CATALOG);
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isBlank() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\t", -1);
            if (f.length != 7) {
                throw new IllegalStateException(CATALOG + ":" + (i + 1) + ": expected 7 tab-separated fields, got " + f.length);
            }
            out.add(new Entry(i + 1, f[0], f[1], f[2], f[3], f[4], f[5], f[6]));
        }
        return out;
    }

    static List<SourceString> sourceStrings() {
        List<SourceString> out = new ArrayList<>();
        for (String l : read(SOURCE_STRINGS)) {
            if (l.isBlank() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\t", -1);
            out.add(new SourceString(f[0], f[1], f[2], f[3]));
        }
        return out;
    }

    /** The header line naming the SchedMD/slurm tags the strings came from. */
    static String sourceTags() {
        return read(SOURCE_STRINGS).stream().filter(l -> l.contains("slurm-")).findFirst().orElse("");
    }

    private static List<String> read(Path p) {
        try {
            return Files.readAllLines(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
