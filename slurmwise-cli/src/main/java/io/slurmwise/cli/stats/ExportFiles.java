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
        InputStream raw = new BufferedInputStream(Files.newInputStream(f), BUFFER);
        try {
            // by its first bytes, not only its name: a gzip file named .psv printed its binary as "no JobID column"
            // (an outside audit), and one cut short is said to be cut, not a zlib message
            raw.mark(2);
            boolean gzip = raw.read() == 0x1f && raw.read() == 0x8b;
            raw.reset();
            if (gzip || name.endsWith(".gz")) {
                return new CutGzip(new GZIPInputStream(raw, BUFFER), f);
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

    /** A gzip stream whose early end says the file is cut short and what to do, not zlib's words alone. */
    private static final class CutGzip extends java.io.FilterInputStream {
        private final Path file;

        CutGzip(InputStream in, Path file) {
            super(in);
            this.file = file;
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (java.io.EOFException | java.util.zip.ZipException e) {
                throw cut(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (java.io.EOFException | java.util.zip.ZipException e) {
                throw cut(e);
            }
        }

        /** An end of file: the reader says it as it is, without its generic hint. */
        private IOException cut(IOException e) {
            java.io.EOFException out = new java.io.EOFException("it is a gzip file cut short or damaged ("
                    + e.getMessage() + "): copy or export it again (`gzip -t " + file.getFileName() + "` checks it),"
                    + " or leave it out of --input");
            out.initCause(e);
            return out;
        }
    }
}
