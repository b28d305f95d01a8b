package io.slurmwise.mcp.stdio;

/**
 * Text a client sent, made safe to quote back in an answer: it cannot steer a terminal that prints the answer, reorder
 * the text around it, or break a strict JSON parser. The one rule for every message of the server that quotes a
 * client (the front's JSON-RPC errors, the tools' errors, the prompts').
 *
 * <pre>{@code
 * Shown.oneLine("\u001b[2J1\u202e")   // "?[2J1?"
 * }</pre>
 */
public final class Shown {

    /** Control characters, line and paragraph separators, bidirectional overrides and isolates. */
    private static final java.util.regex.Pattern STEERING =
            java.util.regex.Pattern.compile("[\\p{Cntrl}\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069]");
    private static final java.util.regex.Pattern STEERING_BUT_LINES =
            java.util.regex.Pattern.compile("[\\p{Cntrl}\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069&&[^\\n\\t]]");

    private Shown() {
    }

    /** {@code s} as one line: every steering character and every lone surrogate shown as '?'. */
    public static String oneLine(String s) {
        return s == null ? "" : STEERING.matcher(whole(s, '?')).replaceAll("?");
    }

    /**
     * As {@link #oneLine}, keeping line breaks (a log's CRLF as one) and tabs: a tool's error of several lines, a text
     * form that quotes a job's log (a progress bar's colours, a title a job set with {@code \\e]0;...\\a}).
     */
    public static String lines(String s) {
        return s == null ? "" : STEERING_BUT_LINES.matcher(whole(s, '?').replace("\r\n", "\n")).replaceAll("?");
    }

    /** The index of the first surrogate in {@code s} that is not half of a pair, or -1. */
    static int loneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /** {@code s} with each lone surrogate replaced by {@code with}. */
    static String whole(String s, char with) {
        if (loneSurrogate(s) < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                b.append(c).append(s.charAt(++i));
            } else {
                b.append(Character.isSurrogate(c) ? with : c);
            }
        }
        return b.toString();
    }
}
