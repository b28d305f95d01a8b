package io.slurmwise.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A batch script as sbatch reads it: the shebang, the {@code #SBATCH} directives of the header (sbatch stops
 * reading directives at the first line that is neither a comment nor blank), and the rest. Immutable; the
 * {@code with*} methods return a changed copy that keeps every untouched byte, the line endings (LF or CRLF)
 * and the form of each directive ({@code --mem=32G}, {@code --mem 32G}, {@code -t 1:00:00}).
 *
 * <pre>{@code
 * BatchScript s = BatchScript.parse("#!/bin/bash\n#SBATCH --mem 32G\npython train.py\n");
 * s.option("mem").map(BatchScript.Option::value);     // Optional[32G]
 * s.withOption("mem", "48G").text();                  // "#!/bin/bash\n#SBATCH --mem 48G\npython train.py\n"
 * }</pre>
 */
public final class BatchScript {

    /** Long options that take no value (or only an attached {@code =value}): the next token is not theirs. */
    private static final Set<String> LONG_FLAGS = Set.of("exclusive", "requeue", "no-requeue", "hold", "overcommit",
            "contiguous", "parsable", "wait", "test-only", "spread-job", "use-min-nodes", "oversubscribe",
            "get-user-env", "propagate", "quiet", "verbose", "ignore-pbs", "no-kill", "reboot", "nice", "help",
            "usage", "version", "immediate", "kill-on-invalid-dep", "wrap-never");
    /** A comment at the end of a directive line: sbatch reads no option after a {@code #} that follows a space. */
    private static final java.util.regex.Pattern TRAILING_COMMENT = java.util.regex.Pattern.compile("\\s+#.*$");
    /** Short options that take no value. */
    private static final Set<Character> SHORT_FLAGS = Set.of('H', 'I', 'k', 'O', 'Q', 's', 'v', 'W', 'h', 'V');
    /** Short option -> its long name, for the options slurmwise reads or writes. */
    private static final java.util.Map<Character, String> SHORT_TO_LONG = java.util.Map.ofEntries(
            java.util.Map.entry('t', "time"), java.util.Map.entry('p', "partition"),
            java.util.Map.entry('x', "exclude"), java.util.Map.entry('w', "nodelist"),
            java.util.Map.entry('J', "job-name"), java.util.Map.entry('A', "account"),
            java.util.Map.entry('N', "nodes"), java.util.Map.entry('n', "ntasks"),
            java.util.Map.entry('c', "cpus-per-task"), java.util.Map.entry('o', "output"),
            java.util.Map.entry('e', "error"), java.util.Map.entry('q', "qos"),
            java.util.Map.entry('G', "gpus"), java.util.Map.entry('C', "constraint"),
            java.util.Map.entry('d', "dependency"), java.util.Map.entry('a', "array"),
            java.util.Map.entry('D', "chdir"), java.util.Map.entry('s', "oversubscribe"));

    /**
     * One option of a directive line.
     *
     * @param name       long name without dashes ({@code mem}, {@code time} for {@code -t})
     * @param value      its value, or null for a flag
     * @param line       0-based line index in the script
     * @param valueStart offset of the value in the line (-1 for a flag)
     * @param valueEnd   end offset (exclusive) of the value in the line
     */
    public record Option(String name, String value, int line, int valueStart, int valueEnd) {
    }

    private final List<String> lines;
    private final String eol;
    private final boolean finalNewline;
    private final int headerEnd;
    private final List<Option> options;

    private BatchScript(List<String> lines, String eol, boolean finalNewline) {
        this.lines = List.copyOf(lines);
        this.eol = eol;
        this.finalNewline = finalNewline;
        int end = 0;
        List<Option> opts = new ArrayList<>();
        for (int i = 0; i < this.lines.size(); i++) {
            String l = this.lines.get(i);
            String t = l.strip();
            if (i == 0 && t.startsWith("#!")) {
                end = 1;
                continue;
            }
            if (!t.isEmpty() && !t.startsWith("#")) {
                break;
            }
            end = i + 1;
            if (l.startsWith("#SBATCH")) { // sbatch reads a directive only at the start of the line
                parseDirective(l, i, opts);
            }
        }
        this.headerEnd = end;
        this.options = List.copyOf(opts);
    }

    /** Parses a script; never fails (a script without directives has none). */
    public static BatchScript parse(String text) {
        String eol = text.contains("\r\n") ? "\r\n" : "\n";
        boolean finalNewline = text.endsWith("\n");
        String body = finalNewline ? text.substring(0, text.length() - 1) : text;
        List<String> lines = new ArrayList<>();
        for (String l : body.split("\n", -1)) {
            lines.add(l.endsWith("\r") ? l.substring(0, l.length() - 1) : l);
        }
        if (text.isEmpty()) {
            lines.clear();
        }
        return new BatchScript(lines, eol, finalNewline || text.isEmpty());
    }

    private static void parseDirective(String line, int index, List<Option> out) {
        int i = "#SBATCH".length();
        if (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
            return; // "#SBATCHX" is not a directive
        }
        List<int[]> tokens = tokens(line, i);
        for (int k = 0; k < tokens.size(); k++) {
            int s = tokens.get(k)[0];
            int e = tokens.get(k)[1];
            String tok = line.substring(s, e);
            if (tok.startsWith("--") && tok.length() > 2) {
                int eq = tok.indexOf('=');
                String name = (eq < 0 ? tok.substring(2) : tok.substring(2, eq)).toLowerCase(Locale.ROOT);
                if (eq >= 0) {
                    out.add(new Option(name, unquote(tok.substring(eq + 1)), index, s + eq + 1, e));
                } else if (!LONG_FLAGS.contains(name) && k + 1 < tokens.size()
                        && !line.substring(tokens.get(k + 1)[0], tokens.get(k + 1)[1]).startsWith("-")) {
                    int[] v = tokens.get(++k);
                    out.add(new Option(name, unquote(line.substring(v[0], v[1])), index, v[0], v[1]));
                } else {
                    out.add(new Option(name, null, index, -1, -1));
                }
            } else if (tok.startsWith("-") && tok.length() >= 2 && tok.charAt(1) != '-') {
                char c = tok.charAt(1);
                String name = SHORT_TO_LONG.getOrDefault(c, String.valueOf(c));
                if (SHORT_FLAGS.contains(c) && tok.length() == 2) {
                    out.add(new Option(name, null, index, -1, -1));
                } else if (tok.length() > 2) {
                    int vs = s + (tok.charAt(2) == '=' ? 3 : 2);
                    out.add(new Option(name, unquote(line.substring(vs, e)), index, vs, e));
                } else if (k + 1 < tokens.size()) {
                    int[] v = tokens.get(++k);
                    out.add(new Option(name, unquote(line.substring(v[0], v[1])), index, v[0], v[1]));
                } else {
                    out.add(new Option(name, null, index, -1, -1));
                }
            }
        }
    }

    /** Whitespace-separated tokens (double quotes group), stopping at an unquoted {@code #} (a comment). */
    private static List<int[]> tokens(String line, int from) {
        List<int[]> out = new ArrayList<>();
        int i = from;
        int n = line.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i >= n || line.charAt(i) == '#') {
                break;
            }
            int start = i;
            boolean quoted = false;
            while (i < n && (quoted || !Character.isWhitespace(line.charAt(i)))) {
                if (line.charAt(i) == '"') {
                    quoted = !quoted;
                }
                i++;
            }
            out.add(new int[] {start, i});
        }
        return out;
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }

    /** The script's text, with its own line endings. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            sb.append(lines.get(i));
            if (i < lines.size() - 1 || finalNewline) {
                sb.append(eol);
            }
        }
        return sb.toString();
    }

    public List<String> lines() {
        return lines;
    }

    /** {@code \r\n} for a script written on Windows, else {@code \n}. */
    public String lineEnding() {
        return eol;
    }

    /** The shebang line, if the script has one. */
    public Optional<String> shebang() {
        return !lines.isEmpty() && lines.get(0).startsWith("#!") ? Optional.of(lines.get(0)) : Optional.empty();
    }

    /** Every option of the directives sbatch reads, in order. */
    public List<Option> options() {
        return options;
    }

    /** The last occurrence of an option (sbatch lets a later one win); {@code -t} is found as {@code time}. */
    public Optional<Option> option(String name) {
        Option found = null;
        for (Option o : options) {
            if (o.name().equals(name)) {
                found = o;
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * The per-GPU batch size a command of the script passes to its program ({@code --batch-size 8},
     * {@code --per_device_train_batch_size=4}, {@code --micro-bs 2}), as written: the last one, as the program reads it.
     *
     * @param option the option as the script spells it
     * @param value  its value
     */
    public record ProgramOption(String option, int value) {
        /** The option as the script would pass it with another value. */
        public String with(int other) {
            return option + " " + other;
        }

        @Override
        public String toString() {
            return with(value);
        }
    }

    /**
     * The batch size a program of the script is given, if a command passes one (patterns.tsv {@code script.batch.size});
     * outside this package, {@link ScriptReading#batchSize()} asks with the fixers' patterns.
     */
    Optional<ProgramOption> batchSize(Patterns patterns) {
        ProgramOption found = null;
        for (String l : lines) {
            Optional<java.util.regex.Matcher> m = patterns.find("script.batch.size", l);
            if (m.isPresent()) {
                try {
                    found = new ProgramOption(m.get().group(1), Integer.parseInt(m.get().group(2)));
                } catch (NumberFormatException e) {
                    // more digits than an int: not a batch size to halve
                }
            }
        }
        return Optional.ofNullable(found);
    }

    public boolean has(String name) {
        return option(name).isPresent();
    }

    /** Index of the first line after the header (shebang, directives, comments and blanks). */
    public int headerEnd() {
        return headerEnd;
    }

    /** Index of the last directive line, or -1. */
    public int lastDirectiveLine() {
        int last = -1;
        for (int i = 0; i < headerEnd; i++) {
            if (lines.get(i).startsWith("#SBATCH")) {
                last = i;
            }
        }
        return last;
    }

    /**
     * Sets an option: its value is replaced in place when the script has it (keeping the form the user wrote),
     * else a directive {@code #SBATCH --name=value} (or {@code --name} for a flag, value null) is inserted after
     * the last directive, or after the shebang.
     */
    public BatchScript withOption(String name, String value) {
        Optional<Option> o = option(name);
        if (o.isPresent() && o.get().valueStart() >= 0 && value != null) {
            Option opt = o.get();
            String l = lines.get(opt.line());
            String v = value.contains(" ") ? "\"" + value + "\"" : value;
            String rest = l.substring(opt.valueEnd());
            // a comment after the old value speaks of it ("--qos=scavenger  # cheap, but can be preempted" read on
            // after --qos=gpu): the changed line keeps only its options
            if (!value.equals(opt.value())) {
                rest = TRAILING_COMMENT.matcher(rest).replaceFirst("");
            }
            return withLine(opt.line(), l.substring(0, opt.valueStart()) + v + rest);
        }
        if (o.isPresent() && value == null) {
            return this;
        }
        return insertDirective("#SBATCH --" + name + (value == null ? "" : "=" + value));
    }

    /** Inserts a directive line (or a comment) after the last directive, or after the shebang. */
    public BatchScript insertDirective(String line) {
        int at = lastDirectiveLine();
        if (at < 0) {
            at = shebang().isPresent() ? 0 : -1;
        }
        return insertLines(at + 1, List.of(line));
    }

    /** Inserts lines before {@code index}. */
    public BatchScript insertLines(int index, List<String> newLines) {
        List<String> l = new ArrayList<>(lines);
        l.addAll(Math.max(0, Math.min(index, l.size())), newLines);
        return new BatchScript(l, eol, finalNewline);
    }

    /** Replaces line {@code index}. */
    public BatchScript withLine(int index, String text) {
        List<String> l = new ArrayList<>(lines);
        l.set(index, text);
        return new BatchScript(l, eol, finalNewline);
    }
}
