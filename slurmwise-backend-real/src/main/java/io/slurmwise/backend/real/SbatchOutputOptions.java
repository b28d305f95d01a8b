package io.slurmwise.backend.real;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code --output}/{@code --error} a job was submitted with, read from its batch script's {@code #SBATCH}
 * lines or from the sbatch command line (SubmitLine, 23.02+), which overrides the script.
 *
 * <pre>{@code
 * SbatchOutputOptions o = SbatchOutputOptions.fromScript("#!/bin/bash\n#SBATCH -o logs/%x-%j.out\n...");
 * o.output();   // Optional[logs/%x-%j.out]
 * o.error();    // Optional.empty: stderr goes to the output file
 * }</pre>
 */
public record SbatchOutputOptions(Optional<String> output, Optional<String> error) {

    public static final SbatchOutputOptions NONE = new SbatchOutputOptions(Optional.empty(), Optional.empty());

    /**
     * The directives of a batch script. Like sbatch, it reads {@code #SBATCH} lines only up to the first command
     * (a line that is neither blank nor a comment); a later directive applies over an earlier one.
     */
    public static SbatchOutputOptions fromScript(String script) {
        String out = null;
        String err = null;
        boolean first = true;
        for (String raw : script.split("\\R")) {
            String line = raw.strip();
            if (first && line.startsWith("#!")) {
                first = false;
                continue;
            }
            first = false;
            if (line.isEmpty()) {
                continue;
            }
            if (!line.startsWith("#")) {
                break;
            }
            if (!line.startsWith("#SBATCH")) {
                continue;
            }
            List<String> words = words(line.substring("#SBATCH".length()));
            SbatchOutputOptions o = fromWords(words);
            out = o.output.orElse(out);
            err = o.error.orElse(err);
        }
        return new SbatchOutputOptions(Optional.ofNullable(out), Optional.ofNullable(err));
    }

    /** The options of an sbatch command line (sacct's SubmitLine), up to the script name. */
    public static SbatchOutputOptions fromCommandLine(String submitLine) {
        List<String> words = words(submitLine);
        if (!words.isEmpty() && (words.get(0).equals("sbatch") || words.get(0).endsWith("/sbatch"))) {
            words = words.subList(1, words.size());
        }
        return fromWords(words);
    }

    /** This, with {@code other}'s options where they are set (the command line over the script). */
    public SbatchOutputOptions overriddenBy(SbatchOutputOptions other) {
        return new SbatchOutputOptions(other.output.or(() -> output), other.error.or(() -> error));
    }

    private static SbatchOutputOptions fromWords(List<String> words) {
        String out = null;
        String err = null;
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (!w.startsWith("-")) {
                break; // the script name: what follows are the script's own arguments
            }
            String value = null;
            boolean isOut = false;
            boolean isErr = false;
            if (w.equals("-o") || w.equals("--output") || w.equals("-e") || w.equals("--error")) {
                isOut = w.equals("-o") || w.equals("--output");
                isErr = !isOut;
                value = i + 1 < words.size() ? words.get(++i) : null;
            } else if (w.startsWith("--output=") || w.startsWith("--error=")) {
                isOut = w.startsWith("--output=");
                isErr = !isOut;
                value = w.substring(w.indexOf('=') + 1);
            } else if ((w.startsWith("-o") || w.startsWith("-e")) && w.length() > 2 && !w.startsWith("--")) {
                isOut = w.charAt(1) == 'o';
                isErr = !isOut;
                value = w.substring(2);
            } else if (takesValue(w) && i + 1 < words.size()) {
                i++; // skip the value of another short option, e.g. "-J name"
            }
            if (value != null && !value.isEmpty()) {
                if (isOut) {
                    out = value;
                } else if (isErr) {
                    err = value;
                }
            }
        }
        return new SbatchOutputOptions(Optional.ofNullable(out), Optional.ofNullable(err));
    }

    // short sbatch options that take a separate value; enough to find the script name on a command line
    private static boolean takesValue(String w) {
        return w.length() == 2 && "ABCDFGJLMNSabcdimnpqtwx".indexOf(w.charAt(1)) >= 0
                || (w.startsWith("--") && !w.contains("=") && LONG_WITH_VALUE.contains(w));
    }

    private static final java.util.Set<String> LONG_WITH_VALUE = java.util.Set.of("--account", "--array",
            "--partition", "--time", "--mem", "--job-name", "--qos", "--gres", "--nodes", "--ntasks", "--chdir",
            "--cpus-per-task", "--dependency", "--constraint", "--mem-per-cpu", "--mem-per-gpu", "--gpus",
            "--gpus-per-node", "--ntasks-per-node", "--nodelist", "--exclude", "--export", "--input", "--signal",
            "--reservation", "--wckey", "--comment", "--mail-type", "--mail-user", "--begin", "--clusters");

    /**
     * Splits like sbatch does for a directive: on blanks, honouring single and double quotes, and stopping at an
     * unquoted {@code #} that starts a word (a trailing comment).
     */
    static List<String> words(String s) {
        List<String> words = new ArrayList<>();
        StringBuilder cur = null;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (quote != 0) {
                if (ch == quote) {
                    quote = 0;
                } else {
                    cur.append(ch);
                }
                continue;
            }
            if (ch == '\'' || ch == '"') {
                quote = ch;
                if (cur == null) {
                    cur = new StringBuilder();
                }
                continue;
            }
            if (Character.isWhitespace(ch)) {
                if (cur != null) {
                    words.add(cur.toString());
                    cur = null;
                }
                continue;
            }
            if (ch == '#' && cur == null) {
                break;
            }
            if (cur == null) {
                cur = new StringBuilder();
            }
            cur.append(ch);
        }
        if (cur != null) {
            words.add(cur.toString());
        }
        return words;
    }
}
