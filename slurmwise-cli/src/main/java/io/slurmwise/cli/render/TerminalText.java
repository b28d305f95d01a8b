package io.slurmwise.cli.render;

/**
 * Text from outside made safe to show on a terminal. A job's log, its name and paths, sacct fields and a language
 * model's answer are not ours: an escape sequence in them could set the window title, clear the screen, write the
 * clipboard (OSC 52) or reorder what the reader sees (bidi overrides). Here colour sequences (SGR) are dropped and
 * every other control character is shown as an escape a reader can see (ESC as {@code \x1b}), so nothing is hidden and nothing acts:
 *
 * <p>A job named ESC {@code ]0;owned} BEL {@code train} ESC {@code [31m!} ESC {@code [0m} is shown as
 * {@code \x1b]0;owned\x07train!}: the title sequence visible and inert, the colour gone.
 *
 * {@link TerminalWriter} applies the same rule to everything the CLI prints, as the last guard.
 */
public final class TerminalText {

    private TerminalText() {
    }

    /** {@code s} with its line breaks kept (an explanation, a note): see {@link #line}. Null stays null. */
    public static String text(String s) {
        return clean(s, true);
    }

    /** {@code s} as one line (a job name, a path, a table cell, an evidence line): a newline is shown as {@code \n}. */
    public static String line(String s) {
        return clean(s, false);
    }

    private static String clean(String s, boolean keepNewlines) {
        if (s == null || isSafe(s, keepNewlines)) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length() + 16);
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == 0x1b) {
                int end = sgrEnd(s, i);
                if (end > 0) {
                    i = end; // a colour change from the log: dropped, the text it coloured stays
                    continue;
                }
            }
            if (c == '\n') {
                if (keepNewlines) {
                    out.append(c);
                } else {
                    escape(c, out);
                }
            } else if (c == '\t') {
                out.append(' ');
            } else if (c == '\r' && keepNewlines && i + 1 < n && s.charAt(i + 1) == '\n') {
                continue; // a CRLF line end is a line end
            } else if (isControl(c)) {
                escape(c, out);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isSafe(String s, boolean keepNewlines) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\t' || (c == '\n' ? !keepNewlines : isControl(c))) {
                return false;
            }
        }
        return true;
    }

    /** The index of the {@code m} that ends an SGR sequence {@code ESC [ digits ; ... m} starting at {@code i}, else -1. */
    static int sgrEnd(CharSequence s, int i) {
        if (i + 2 >= s.length() || s.charAt(i + 1) != '[') {
            return -1;
        }
        for (int j = i + 2; j < s.length() && j < i + 40; j++) {
            char c = s.charAt(j);
            if (c == 'm') {
                return j;
            }
            if (!(c >= '0' && c <= '9' || c == ';' || c == ':')) {
                return -1;
            }
        }
        return -1;
    }

    /**
     * Whether {@code c} must never reach a terminal as it is (newline and tab aside): C0 controls (ESC, BEL, CR,
     * backspace...), DEL, the C1 controls U+0080..U+009F (U+009B is a one-character CSI on some terminals), the
     * bidirectional overrides, embeddings, isolates and marks, and the Unicode line and paragraph separators.
     */
    public static boolean isControl(char c) {
        return c < 0x20 && c != '\n' && c != '\t'
                || c >= 0x7f && c <= 0x9f
                || c == 0x061c || c == 0x200e || c == 0x200f
                || c >= 0x202a && c <= 0x202e
                || c >= 0x2066 && c <= 0x2069
                || c == 0x2028 || c == 0x2029;
    }

    /** The visible form of a control character: {@code \r}, {@code \n}, {@code \x1b}, and U+202E as backslash-u-202e. */
    static void escape(char c, StringBuilder out) {
        if (c == '\r') {
            out.append("\\r");
        } else if (c == '\n') {
            out.append("\\n");
        } else if (c <= 0xff) {
            out.append("\\x").append(hex(c >> 4)).append(hex(c & 0xf));
        } else {
            out.append("\\u").append(hex(c >> 12)).append(hex((c >> 8) & 0xf)).append(hex((c >> 4) & 0xf))
                    .append(hex(c & 0xf));
        }
    }

    private static char hex(int d) {
        return "0123456789abcdef".charAt(d);
    }
}
