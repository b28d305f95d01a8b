package io.slurmwise.classify;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;

/**
 * A log line as a reader sees it, from the bytes a program wrote: ANSI colour escapes removed, a line that
 * {@code \r} overwrote (progress bars) split into the texts it showed, and the prefixes that launchers, loggers
 * and tools put before a message ({@code srun: error: node12:}, timestamps, {@code [rank3]:}, {@code CRASH:})
 * peeled off for signatures anchored at the start of the message. Every step is one linear pass.
 */
final class LineText {

    /** One prefix that a launcher, a logger or a tool puts before a message; peeled one at a time. */
    private static final Pattern PREFIX = Pattern.compile("^\\s*(?:"
            + "\\[[^\\]\\n]{0,80}\\]:?"                                                   // [rank3]: [2024-05-01 10:00:00]
            + "|\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d:\\d\\d[.,\\d]*(?:Z|[+-]\\d\\d:?\\d\\d)?:?" // ISO timestamp
            + "|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \\d]?\\d \\d\\d:\\d\\d:\\d\\d(?: [A-Z]{3,4})?(?: \\d{4})?:?" // date(1)
            + "|[A-Z][a-z]{2} [ \\d]?\\d \\d\\d:\\d\\d:\\d\\d:?"                           // syslog
            + "|\\d\\d:\\d\\d:\\d\\d[.,\\d]*:?"                                           // clock
            + "|(?i:crash|error|fatal|warning)\\s*:"                                      // CRASH: ERROR:
            + "|(?:srun|sbatch|salloc|slurmstepd|slurmd|slurmctld)(?:-\\S+)?(?:\\[\\d+\\])?:(?: (?:error|warning|fatal|info|debug\\d?):)?"
            + "|[A-Za-z][\\w.-]{0,63}\\d:"                                                // node12: (a host name ends in a digit)
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

    /**
     * The texts a {@code \r}-overwritten line showed, each on its own (the whole line when it has no inner
     * {@code \r}). Empty segments are dropped.
     */
    static String[] segments(String s) {
        if (s.indexOf('\r') < 0) {
            return new String[] {s};
        }
        return java.util.Arrays.stream(s.split("\r")).filter(x -> !x.isBlank()).toArray(String[]::new);
    }

    /** The text the terminal shows last: the final {@code \r} segment. */
    static String shown(String s) {
        String[] seg = segments(stripAnsi(s));
        return seg.length == 0 ? "" : seg[seg.length - 1];
    }

    /**
     * Whether {@code p} finds a match in {@code line} as a reader sees it: in any {@code \r} segment without
     * colour escapes, and, for a pattern anchored at the start ({@code anchored}), also after each launcher or
     * logger prefix is peeled off.
     */
    static boolean find(Pattern p, String line, boolean anchored) {
        String clean = stripAnsi(line);
        for (String seg : segments(clean)) {
            if (p.matcher(seg).find()) {
                return true;
            }
            if (anchored) {
                String s = seg;
                for (int n = 0; n < MAX_PREFIXES; n++) {
                    Matcher m = PREFIX.matcher(s);
                    if (!m.find() || m.end() == 0) {
                        break;
                    }
                    s = s.substring(m.end());
                    if (p.matcher(s).find()) {
                        return true;
                    }
                }
            }
        }
        return false;
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
