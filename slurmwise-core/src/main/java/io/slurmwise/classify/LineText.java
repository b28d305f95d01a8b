package io.slurmwise.classify;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;

/**
 * A log line as a reader sees it, from the bytes a program wrote: ANSI colour escapes removed, a line that
 * {@code \r} overwrote (progress bars) split into the texts it showed, and the prefixes that launchers, loggers
 * and tools put before a message ({@code srun: error: node12:}, srun's {@code --label} task number, timestamps,
 * {@code [rank3]:}, {@code CRASH:}, Python logging's {@code ERROR:root:}, glog's {@code E0501 10:00:00.123 42 f.cc:7]},
 * Ray's {@code (pid=42)})
 * peeled off for signatures anchored at the start of the message. Every step is one linear pass.
 */
final class LineText {

    /** One prefix that a launcher, a logger or a tool puts before a message; peeled one at a time. */
    private static final Pattern PREFIX = Pattern.compile("^\\s*(?:"
            + "\\[[^\\]\\n]{0,80}\\]:?"                                                   // [rank3]: [2024-05-01 10:00:00]
            + "|\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d:\\d\\d[.,\\d]*(?:Z|[+-]\\d\\d:?\\d\\d)?:?" // ISO timestamp
            + "|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \\d]?\\d \\d\\d:\\d\\d:\\d\\d(?: [A-Z]{3,4})?(?: \\d{4})?:?" // date(1)
            + "|[A-Z][a-z]{2} [ \\d]?\\d \\d\\d:\\d\\d:\\d\\d(?: [\\w.-]+ [\\w./@-]+(?:\\[\\d+\\])?:)?:?" // syslog: "Mar  1 10:00:00 host tag[pid]:"
            + "|\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d[.\\d]*"                            // Go's log package
            + "|[\\w.-]+ [\\w./@-]+\\[\\d+\\]:"                                            // journalctl after its timestamp: "host tag[pid]:"
            + "|(?:stdout|stderr) [FP] "                                                  // a container runtime's (CRI) log line after its timestamp
            + "|<std(?:out|err|diag)>:"                                                    // Open MPI's --tag-output after its "[1,3]"
            + "|E(?: {2,}|\\t)"                                                             // pytest's failure lines: "E       RuntimeError: ..."
            + "|\\d\\d:\\d\\d:\\d\\d[.,\\d]*:?"                                           // clock
            + "|(?:CRITICAL|ERROR|WARNING|INFO|DEBUG):[\\w.]*:"                             // Python logging's BASIC_FORMAT (before CRASH:)
            + "|-\\s+[\\w.]+\\s+-\\s+(?:CRITICAL|ERROR|WARNING|INFO|DEBUG)\\s+-"              // logging's "%(asctime)s - %(name)s - %(levelname)s - "
            + "|\\|\\s*(?:TRACE|DEBUG|INFO|SUCCESS|WARNING|ERROR|CRITICAL)\\s*\\|(?:\\s*[\\w.<>]+:[\\w.<>]+:\\d+\\s+-)?" // loguru's "| ERROR | mod:fn:12 -"
            + "|(?i:crash|error|fatal|warning)\\s*:"                                      // CRASH: ERROR:
            + "|(?:srun|sbatch|salloc|slurmstepd|slurmd|slurmctld)(?:-\\S+)?(?:\\[\\d+\\])?:(?: (?:error|warning|fatal|info|debug\\d?):)?"
            + "|[A-Za-z][\\w.-]{0,63}\\d:"                                                // node12: (a host name ends in a digit)
            + "|(?:P\\d+ )?\\d{1,7}:(?:\\s|$)"                                             // srun --label: "%*d: " (write_labelled_message.c)
            + "|[IWEF]\\d{4}(?:\\d{4})? \\d\\d:\\d\\d:\\d\\d\\.\\d+\\s+\\d+ [\\w./+-]+:\\d+\\]"         // glog/absl (TensorFlow, XLA)
            + "|\\((?:[\\w.-]+ )?pid=\\d+(?:, ip=[\\d.]+)?\\)"                                // Ray's worker prefix (pid=..., ip=...)
            + "|>+"                                                                    // a Markdown quote: "> Killed"
            + "|\\d{1,7}\t|\\d{1,6} \\|"                                                   // cat -n's "    12<TAB>", a viewer's "12 | "
            + ")\\s*");
    private static final int MAX_PREFIXES = 6;

    private LineText() {
    }

    /** The line without ANSI escape sequences (CSI {@code ESC [ ... letter} and two-byte {@code ESC x}). */
    static String stripAnsi(String s) {
        int esc = s.indexOf('\u001b');
        if (esc < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        b.append(s, 0, esc);
        int i = esc;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != '\u001b') {
                b.append(c);
                i++;
                continue;
            }
            i = skipEscape(s, i);
        }
        return b.toString();
    }

    /** The index after the escape sequence that starts at {@code i}. */
    private static int skipEscape(String s, int i) {
        int j = i + 1;
        if (j >= s.length()) {
            return j;
        }
        if (s.charAt(j) != '[') {
            return j + 1; // ESC x
        }
        j++;
        while (j < s.length() && j - i < 64) {
            char c = s.charAt(j++);
            if (c >= 0x40 && c <= 0x7e) {
                return j; // the final byte of a CSI sequence
            }
        }
        return j;
    }

    /** A {@code \r}, or a line break written as the two characters backslash and n (optionally after backslash r). */
    private static final java.util.regex.Pattern SEGMENT_BREAK = java.util.regex.Pattern.compile("\r|(?:\\\\r)?\\\\n");

    /**
     * The texts a {@code \r}-overwritten line showed, each on its own (the whole line when it has no inner
     * {@code \r}). A line that carries other lines as escaped text (a Python exception's repr of a command's stderr,
     * a JSON log record: {@code RuntimeError('...\\nsbatch: error: ...\\n')}) is split at each escaped line break
     * the same way, so that each carried line is read as the line it was: without the string's escapes and, in a JSON
     * record, without the record's syntax around the string ({@link #unescaped}). Empty segments are dropped.
     */
    static String[] segments(String s) {
        if (s.indexOf('\r') < 0 && !s.contains("\\n")) {
            return new String[] {s};
        }
        String[] parts = SEGMENT_BREAK.split(s, -1);
        if (parts.length > 1 && s.contains("\\n")) {
            // the line carries lines inside a string literal: each carried line as it was, not as the string escapes it
            boolean record = isJsonRecord(s);
            for (int i = 0; i < parts.length; i++) {
                parts[i] = unescaped(parts[i], record && i == 0, record && i == parts.length - 1);
            }
        }
        return java.util.Arrays.stream(parts).filter(x -> !x.isBlank()).toArray(String[]::new);
    }

    /**
     * Whether the line is a JSON record, whose strings are quoted with {@code "}: an object's {@code {"}, or an array's
     * {@code ["} or {@code [{} (not a log prefix in brackets, {@code [rank0]:} or {@code [E::bgzf_flush]}).
     */
    static boolean isJsonRecord(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        if (i >= s.length() || s.charAt(i) != '{' && s.charAt(i) != '[') {
            return false;
        }
        char open = s.charAt(i++);
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i < s.length() && (s.charAt(i) == '"' || open == '[' && s.charAt(i) == '{');
    }

    /**
     * A line carried inside a string literal (a JSON record's value, a Python repr), as it was before the string escaped
     * it: {@code \"}, {@code \'}, {@code \\}, {@code \/} and {@code \t} read as the characters they stand for. In a
     * JSON record a string's own {@code "} is always escaped, so an unescaped one is the string's edge: the first
     * carried line starts after the last one before it ({@code {"log": "}), the last ends at the first one after it
     * ({@code "}}). One pass.
     */
    static String unescaped(String part, boolean first, boolean last) {
        int from = 0;
        if (first) {
            for (int i = 0; i < part.length(); i++) {
                char c = part.charAt(i);
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    from = i + 1;
                }
            }
        }
        if (part.indexOf('\\', from) < 0 && !last) {
            return from == 0 ? part : part.substring(from);
        }
        StringBuilder b = new StringBuilder(part.length() - from);
        for (int i = from; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '"' && last) {
                break; // the end of the string that carried the lines
            }
            if (c == '\\' && i + 1 < part.length()) {
                char n = part.charAt(i + 1);
                if (n == '"' || n == '\'' || n == '\\' || n == '/') {
                    b.append(n);
                    i++;
                    continue;
                }
                if (n == 't') {
                    b.append('\t');
                    i++;
                    continue;
                }
            }
            b.append(c);
        }
        return b.toString();
    }

    /** The line as a reader sees it: without colour escapes, and without the backticks of Markdown inline code. */
    static String readable(String line) {
        return unquoted(stripAnsi(line));
    }

    /** {@code s} without one pair of enclosing backticks (Markdown inline code), else {@code s}. */
    private static String unquoted(String s) {
        String t = s.strip();
        return t.length() > 2 && t.charAt(0) == '`' && t.charAt(t.length() - 1) == '`' && t.charAt(1) != '`'
                ? t.substring(1, t.length() - 1) : s;
    }

    /**
     * The segments with one pair of enclosing backticks removed: a line pasted as Markdown inline code ({@code `Killed`})
     * reads as the line, so that its end is the message's end.
     */
    private static String[] unquoted(String[] segments) {
        String[] out = segments;
        for (int i = 0; i < segments.length; i++) {
            String u = unquoted(segments[i]);
            if (u != segments[i]) {
                if (out == segments) {
                    out = segments.clone();
                }
                out[i] = u;
            }
        }
        return out;
    }

    /** The text the terminal shows last: the final {@code \r} segment. */
    static String shown(String s) {
        String[] seg = unquoted(segments(readable(s)));
        return seg.length == 0 ? "" : seg[seg.length - 1];
    }

    /**
     * Whether {@code p} finds a match in {@code line} as a reader sees it: in any {@code \r} segment without
     * colour escapes, and, for a pattern anchored at the start ({@code anchored}), also after each launcher or
     * logger prefix is peeled off.
     */
    static boolean find(Pattern p, String line, boolean anchored) {
        return new Reading(line).find(new SignatureRegex(p, null, anchored, java.util.List.of(),
                Literals.Requirement.NONE));
    }

    /**
     * The words of {@code line} that {@code p} matches as a reader sees the line (the first {@code \r} segment or
     * peeled form that matches, as {@link #find} tries them), or null when none does.
     */
    static String matched(Pattern p, String line, boolean anchored) {
        for (String seg : unquoted(segments(readable(line)))) {
            for (String form : anchored ? peel(seg) : new String[] {seg}) {
                Matcher m = p.matcher(form);
                if (m.find()) {
                    return m.group();
                }
            }
        }
        return null;
    }

    /**
     * One line as a reader sees it, worked out once for every signature tested on it: its {@code \r} segments
     * without colour escapes, each segment's peeled forms (computed when an anchored signature first asks) and
     * their ASCII-lowered copies (computed when a {@code (?i)} signature first asks).
     */
    static final class Reading {
        private final String[] segments;
        private final boolean ascii;
        private String[][] peeled;  // per segment: the segment, then each form with one more prefix peeled off
        private String[] loweredSegments;
        private String[][] lowered; // the same texts with ASCII letters lowered (same length, same offsets)

        Reading(String line) {
            String clean = readable(line);
            this.segments = unquoted(segments(clean));
            this.ascii = isAscii(clean);
        }

        /** A line's segments as a reading splits them: without colours, {@code \r}-overwritten texts and carried lines apart. */
        static String[] segmentsOf(String line) {
            return new Reading(line).segments;
        }

        /** Whether the signature finds a match in any form of this line (see {@link LineText#find}). */
        boolean find(SignatureRegex sig) {
            for (int i = 0; i < segments.length; i++) {
                if (findIn(i, sig)) {
                    return true;
                }
            }
            return false;
        }

        /** The line's {@code \r} segments and carried lines: one for most lines. */
        int segmentCount() {
            return segments.length;
        }

        /** Whether the signature finds a match in segment {@code i} of this line, in any of its forms. */
        boolean findIn(int i, SignatureRegex sig) {
            // the lowered program is exact only on ASCII text (Unicode folds e.g. the Kelvin sign to k)
            boolean lower = sig.lower() != null && ascii;
            Pattern p = lower ? sig.lower() : sig.regex();
            // on ASCII text, a segment without the literals every match needs is not tested (a regex costs more)
            boolean check = ascii && sig.required() != Literals.Requirement.NONE;
            if (check && !sig.required().metBy(sig.required().caseSensitive() ? segments[i] : loweredSegments()[i])) {
                return false; // a peeled form is a suffix of its segment: it lacks them too
            }
            if (!sig.anchored()) {
                String text = lower ? loweredSegments()[i] : segments[i];
                // a match starts at one of the leading literals: start there, or skip a line without any
                int from = !ascii || sig.leading().isEmpty() ? 0 : firstOf(loweredSegments()[i], sig.leading());
                return from >= 0 && p.matcher(text).find(from);
            }
            for (String form : (lower ? loweredPeeled() : peeled())[i]) {
                if (p.matcher(form).find()) {
                    return true;
                }
            }
            return false;
        }

        private String[][] peeled() {
            if (peeled == null) {
                peeled = new String[segments.length][];
                for (int i = 0; i < segments.length; i++) {
                    peeled[i] = peel(segments[i]);
                }
            }
            return peeled;
        }

        private String[] loweredSegments() {
            if (loweredSegments == null) {
                loweredSegments = new String[segments.length];
                for (int i = 0; i < segments.length; i++) {
                    loweredSegments[i] = lowerAscii(segments[i]);
                }
            }
            return loweredSegments;
        }

        private String[][] loweredPeeled() {
            if (lowered == null) {
                String[][] forms = peeled();
                lowered = new String[forms.length][];
                for (int i = 0; i < forms.length; i++) {
                    String low = lowerAscii(forms[i][0]);
                    lowered[i] = new String[forms[i].length];
                    for (int k = 0; k < forms[i].length; k++) {
                        // a peeled form is a suffix of its segment: lowering keeps offsets, so cut the lowered copy
                        lowered[i][k] = low.substring(forms[i][0].length() - forms[i][k].length());
                    }
                }
            }
            return lowered;
        }
    }

    /** The segment with every launcher or logger prefix peeled off (the last form {@link #peel} gives). */
    static String peeled(String seg) {
        String[] forms = peel(seg);
        return forms[forms.length - 1];
    }

    /** The segment, then each form with one more launcher or logger prefix peeled off (at most {@link #MAX_PREFIXES}). */
    private static String[] peel(String seg) {
        java.util.List<String> forms = new java.util.ArrayList<>(2);
        forms.add(seg);
        String s = seg;
        if (!s.isEmpty() && Character.isWhitespace(s.charAt(0))) {
            s = s.stripLeading(); // an indented message (a quoted log, a wrapper's report) starts after its indent
            forms.add(s);
        }
        for (int n = 0; n < MAX_PREFIXES; n++) {
            Matcher m = PREFIX.matcher(s);
            if (!m.find() || m.end() == 0) {
                break;
            }
            s = s.substring(m.end());
            forms.add(s);
        }
        return forms.toArray(String[]::new);
    }

    /** The first offset in {@code s} where any of {@code literals} occurs, or -1. */
    private static int firstOf(String s, java.util.List<String> literals) {
        int first = -1;
        for (String lit : literals) {
            int at = s.indexOf(lit);
            if (at >= 0 && (first < 0 || at < first)) {
                first = at;
            }
        }
        return first;
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 128) {
                return false;
            }
        }
        return true;
    }

    /** {@code s} with A-Z lowered and every other char kept (so lengths and offsets are unchanged). */
    static String lowerAscii(String s) {
        char[] c = null;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch >= 'A' && ch <= 'Z') {
                if (c == null) {
                    c = s.toCharArray();
                }
                c[i] = (char) (ch + 32);
            }
        }
        return c == null ? s : new String(c);
    }

    /** Whether a pattern has a {@code ^} anchor outside a character class (so a prefix would stop it). */
    static boolean anchored(String pattern) {
        boolean inClass = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                i++;
            } else if (inClass) {
                inClass = c != ']';
            } else if (c == '[') {
                inClass = true;
                if (i + 1 < pattern.length() && pattern.charAt(i + 1) == '^') {
                    i++;
                }
            } else if (c == '^') {
                return true;
            }
        }
        return false;
    }
}
