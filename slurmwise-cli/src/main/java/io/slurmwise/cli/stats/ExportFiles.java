package io.slurmwise.cli.stats;

import io.airlift.compress.zstd.ZstdInputStream;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.UserError;
import io.slurmwise.stats.ExportStats;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The sacct exports named by {@code stats --input}: files as given, folders as their files (sorted, hidden ones
 * skipped), each opened through gzip or zstd when its name ends in {@code .gz} or {@code .zst}.
 */
final class ExportFiles {

    private static final int BUFFER = 1 << 16;

    private ExportFiles() {
    }

    /** The sources of the given paths, in order; a missing path or an empty folder is an input error. */
    static List<ExportStats.Source> sources(List<Path> inputs) {
        List<ExportStats.Source> out = new ArrayList<>();
        for (Path p : inputs) {
            if (Files.isDirectory(p)) {
                List<Path> files;
                try (Stream<Path> s = Files.list(p)) {
                    files = s.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith("."))
                            .sorted().toList();
                } catch (IOException e) {
                    throw new UserError(ExitCodes.INPUT, "cannot list " + p + ": " + e.getMessage());
                }
                if (files.isEmpty()) {
                    throw new UserError(ExitCodes.INPUT, "--input " + p + " is a folder without files; put sacct -P"
                            + " exports in it (see the README's export command)");
                }
                files.forEach(f -> out.add(source(f)));
            } else if (Files.isRegularFile(p)) {
                out.add(source(p));
            } else {
                throw new UserError(ExitCodes.INPUT, "--input " + p + " does not exist (or is not a file or folder);"
                        + " give a sacct -P export, or a folder of them");
            }
        }
        return out;
    }

    static ExportStats.Source source(Path f) {
        return ExportStats.Source.of(f.toString(), () -> open(f));
    }

    static InputStream open(Path f) throws IOException {
        String name = f.getFileName().toString().toLowerCase(Locale.ROOT);
        InputStream raw = Files.newInputStream(f);
        try {
            if (name.endsWith(".gz")) {
                return new GZIPInputStream(raw, BUFFER);
            }
            if (name.endsWith(".zst") || name.endsWith(".zstd")) {
                return new BufferedInputStream(new ZstdInputStream(new BufferedInputStream(raw, BUFFER)), BUFFER);
            }
            return raw;
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }
}
