package io.slurmwise.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The rows of a table SLURM prints with {@code -P} ({@code sacctmgr show qos}, {@code sacctmgr show assoc},
 * {@code sshare}): '|' between columns, blank lines skipped, the header line (without {@code -n}) skipped. A row of
 * another width, or one the reader refuses, is an error naming its line, so a cut or foreign answer is never taken
 * for the table.
 */
final class PipeTable {

    private PipeTable() {
    }

    /**
     * Each row of {@code text} read by {@code row}, in order.
     *
     * @param format the columns asked for ({@code Name,MaxWall,Preempt}): the width and the header
     * @param what   what a row is, for the error ({@code QOS}: "line 2 is no QOS row (Name|MaxWall|Preempt)")
     * @param row    the row's columns (unstripped) to its value; null when they are no such row
     * @throws IllegalArgumentException naming the first line that is no row
     */
    static <T> List<T> rows(String text, String format, String what, Function<String[], T> row) {
        String[] names = format.split(",");
        List<T> out = new ArrayList<>();
        int n = 0;
        for (String line : text.split("\\R")) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\\|", -1);
            if (f.length == names.length && header(f, names)) {
                continue;
            }
            T value = f.length == names.length ? row.apply(f) : null;
            if (value == null) {
                throw new IllegalArgumentException("line " + n + " is no " + what + " row (" + format.replace(',', '|')
                        + "): `" + Excerpt.of(line, 80) + "`");
            }
            out.add(value);
        }
        return out;
    }

    /**
     * Whether the line is the header: its first two columns are the format's first two names, in any case (a later
     * column's name may be printed shortened or otherwise cased by another SLURM release).
     */
    private static boolean header(String[] f, String[] names) {
        for (int i = 0; i < Math.min(2, names.length); i++) {
            if (!f[i].strip().toLowerCase(Locale.ROOT).equals(names[i].toLowerCase(Locale.ROOT))) {
                return false;
            }
        }
        return true;
    }

    /** A column of names: printable, without spaces. */
    static boolean name(String s) {
        return s.strip().chars().allMatch(c -> c > ' ' && c < 127);
    }
}
