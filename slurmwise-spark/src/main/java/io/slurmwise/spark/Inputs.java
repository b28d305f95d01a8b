package io.slurmwise.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * What {@code --input} names, as {@code stats --input} reads it: files as given, folders as their files (sorted,
 * hidden ones skipped); sacct exports are cut into {@link ExportSplit}s, and {@code .parquet} files (or a folder of
 * them, as the converter writes) are read as Parquet. Paths are Hadoop paths (local files, hdfs://, ...).
 *
 * @param splits  the exports' splits, in order
 * @param parquet the Parquet files
 * @param files   how many exports
 * @param first   the first export's name, as {@code stats --input} names it
 */
record Inputs(List<ExportSplit> splits, List<String> parquet, int files, String first) {

    /** An input that cannot be read: the message says which and what to do. */
    static final class InputException extends RuntimeException {
        InputException(String message) {
            super(message);
        }
    }

    static Inputs of(List<String> inputs, Configuration conf, long splitBytes) {
        List<ExportSplit> splits = new ArrayList<>();
        List<String> parquet = new ArrayList<>();
        int files = 0;
        String first = null;
        for (String input : inputs) {
            Path p = new Path(input);
            FileStatus st;
            FileSystem fs;
            try {
                fs = p.getFileSystem(conf);
                st = fs.exists(p) ? fs.getFileStatus(p) : null;
            } catch (IOException e) {
                throw new InputException("cannot read --input " + input + ": " + e.getMessage());
            }
            if (st == null) {
                throw new InputException("--input " + input + " does not exist (or is not a file or folder); give a"
                        + " sacct -P export, a folder of them, or the converter's Parquet folder");
            }
            List<FileStatus> found = new ArrayList<>();
            if (st.isDirectory()) {
                try {
                    Arrays.stream(fs.listStatus(p)).filter(FileStatus::isFile)
                            .filter(f -> !f.getPath().getName().startsWith("."))
                            .sorted(Comparator.comparing(f -> f.getPath().getName())).forEach(found::add);
                } catch (IOException e) {
                    throw new InputException("cannot list " + input + ": " + e.getMessage());
                }
                boolean isParquet = found.stream().anyMatch(f -> parquet(f.getPath()));
                if (isParquet) {
                    found.removeIf(f -> !parquet(f.getPath())); // _SUCCESS and the like
                }
                if (found.isEmpty()) {
                    throw new InputException("--input " + input + " is a folder without files; put sacct -P exports"
                            + " in it (see the README's export command)");
                }
            } else {
                found.add(st);
            }
            for (FileStatus f : found) {
                if (parquet(f.getPath())) {
                    parquet.add(f.getPath().toString());
                    continue;
                }
                String name = st.isDirectory() ? childName(input, f.getPath().getName()) : input;
                files++;
                if (first == null) {
                    first = name;
                }
                split(f, name, splitBytes, splits);
            }
        }
        if (!parquet.isEmpty() && files > 0) {
            throw new InputException("--input mixes sacct exports and Parquet files; convert the exports with"
                    + " --to-parquet first, or give them apart");
        }
        return new Inputs(splits, parquet, files, first);
    }

    /** Where the CLI's folder listing names a file: the folder as given, then the name. */
    private static String childName(String dir, String name) {
        URI u = new Path(dir).toUri();
        return u.getScheme() == null ? java.nio.file.Path.of(dir).resolve(name).toString() : new Path(dir, name).toString();
    }

    private static boolean parquet(Path p) {
        return p.getName().toLowerCase(Locale.ROOT).endsWith(".parquet");
    }

    private static boolean compressed(Path p) {
        String n = p.getName().toLowerCase(Locale.ROOT);
        return n.endsWith(".gz") || n.endsWith(".zst") || n.endsWith(".zstd");
    }

    private static void split(FileStatus f, String name, long splitBytes, List<ExportSplit> out) {
        String path = f.getPath().toString();
        long len = f.getLen();
        if (compressed(f.getPath()) || len <= splitBytes) {
            out.add(new ExportSplit(path, name, 0, Long.MAX_VALUE));
            return;
        }
        for (long s = 0; s < len; s += splitBytes) {
            out.add(new ExportSplit(path, name, s, s + splitBytes >= len ? Long.MAX_VALUE : s + splitBytes));
        }
    }
}
