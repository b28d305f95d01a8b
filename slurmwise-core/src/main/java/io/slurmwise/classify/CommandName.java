package io.slurmwise.classify;

import java.util.ArrayList;
import java.util.List;

/**
 * SLURM's client commands name themselves in every message by the base name they were run as: sbatch, srun and
 * salloc call {@code log_init(xbasename(argv[0]), ...)} ({@code src/sbatch/sbatch.c}, {@code src/srun/srun.c},
 * {@code src/salloc/salloc.c}), and getopt prints {@code argv[0]} too. A site that wraps a command and runs the real
 * binary under another name ({@code sbatch.bin}, {@code sbatch.real}, {@code srun.orig}, {@code sbatch.exe}) makes
 * it print {@code sbatch.bin: error: invalid partition specified: x}. Such a prefix is read as the command's own
 * ({@code sbatch: error: ...}), so that every signature written for the command's messages reads it.
 * <p>
 * A name that ends in a script's or a file's extension ({@code srun.py}, {@code sbatch.sh}) is a program or file of
 * its own (argparse prints {@code srun.py: error: ...}, bash {@code sbatch.sh: line 3: ...}), not a renamed command.
 */
final class CommandName {

    private static final String[] COMMANDS = {"sbatch", "srun", "salloc"};
    private static final String SEPARATORS = ".-_";
    private static final int MAX_SUFFIX = 24;
    private static final java.util.regex.Pattern SCRIPT_SUFFIX = java.util.regex.Pattern.compile(
            "(?i).*\\.(py|sh|bash|zsh|csh|tcsh|ksh|pl|rb|r|jl|lua|tcl|m|job|jobs|slurm|sbatch|sub|submit|batch|run|cmd"
                    + "|txt|out|err|log|cfg|conf|yaml|yml|json|toml|ini|tmpl|template)");

    private CommandName() {
    }

    /**
     * The literals whose hit may start a renamed command's prefix: each command followed by a separator, lowercase
     * (the scan folds ASCII case).
     */
    static List<String> literals() {
        List<String> out = new ArrayList<>();
        for (String c : COMMANDS) {
            for (char sep : SEPARATORS.toCharArray()) {
                out.add(c + sep);
            }
        }
        return out;
    }

    /**
     * Rewrites, in {@code text}, the renamed command's prefix that {@link #renamedAt} found (its separator at
     * {@code sep}, its colon at {@code colon}) as the command's own name, keeping the text's length:
     * {@code sbatch.bin: error:} becomes {@code     sbatch: error:} (the spaces stand where the suffix was, so that
     * every offset and line width stays).
     */
    static void rewrite(byte[] text, int sep, int colon, int lineStart) {
        int start = sep - commandBefore(text, sep, lineStart).length();
        int shift = colon - sep;
        for (int i = colon - 1; i >= start + shift; i--) {
            text[i] = text[i - shift];
        }
        for (int i = start; i < start + shift; i++) {
            text[i] = ' ';
        }
    }

    /**
     * Where the colon after a renamed command's suffix is, when the separator at {@code sep} follows a command's name
     * that prints a message there, else -1: a word boundary before the command, a suffix of name characters followed by
     * {@code ": "} (or the line's end), and no script's or file's extension. Looks only.
     *
     * @param lineStart where the line holding {@code sep} starts (the command starts at or after it)
     */
    static int renamedAt(byte[] text, int sep, int lineStart, int lineEnd) {
        if (commandBefore(text, sep, lineStart) == null) {
            return -1;
        }
        int colon = sep + 1;
        while (colon < lineEnd && colon - sep <= MAX_SUFFIX && nameByte(text[colon])) {
            colon++;
        }
        if (colon == sep + 1 || colon >= lineEnd || text[colon] != ':'
                || colon + 1 < lineEnd && text[colon + 1] != ' ' && text[colon + 1] != '\t' && text[colon + 1] != '\r') {
            return -1;
        }
        String suffix = new String(text, sep, colon - sep, java.nio.charset.StandardCharsets.US_ASCII);
        return SCRIPT_SUFFIX.matcher(suffix).matches() ? -1 : colon;
    }

    /** The command whose name ends right before {@code sep} at a word boundary, else null. */
    private static String commandBefore(byte[] text, int sep, int lineStart) {
        for (String c : COMMANDS) {
            int start = sep - c.length();
            if (start < lineStart) {
                continue;
            }
            boolean same = true;
            for (int k = 0; k < c.length() && same; k++) {
                same = (text[start + k] | 0x20) == c.charAt(k);
            }
            if (same && (start == lineStart || !nameByte(text[start - 1]) && text[start - 1] != '/'
                    || afterEscape(text, start, lineStart))) {
                return c;
            }
        }
        return null;
    }

    /** Whether an ANSI colour sequence ({@code ESC [ 1;31 m}) ends right before {@code at}: colour is no name. */
    private static boolean afterEscape(byte[] text, int at, int lineStart) {
        int i = at - 1;
        if (i <= lineStart || text[i] < 0x40 || text[i] > 0x7e) {
            return false;
        }
        i--;
        while (i > lineStart && at - i < 32 && (text[i] >= '0' && text[i] <= '9' || text[i] == ';' || text[i] == '?')) {
            i--;
        }
        return i > lineStart && text[i] == '[' && text[i - 1] == 0x1b;
    }

    /** A byte of a program's file name: ASCII letters, digits, {@code . _ -}. */
    private static boolean nameByte(byte b) {
        return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '.' || b == '_' || b == '-';
    }
}
