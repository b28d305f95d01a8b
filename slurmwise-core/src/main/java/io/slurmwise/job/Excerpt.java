package io.slurmwise.job;

/**
 * A short, printable excerpt of text a program printed (a sacct row, a sinfo line) for messages: control
 * characters become {@code \xNN}, undecodable bytes {@code ?}, and more than {@code max} characters end in
 * {@code ...}, so an error line can never move the cursor, set the window title or flood the terminal.
 *
 * <pre>{@code
 * Excerpt.of("45|job\u001b]0;x\u0007", 80) // "45|job\x1b]0;x\x07"
 * }</pre>
 */
public final class Excerpt {

    private Excerpt() {
    }

    public static String of(String text, int max) {
        if (text == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(Math.min(text.length(), max) + 8);
        for (int i = 0; i < text.length() && b.length() < max; i++) {
            char c = text.charAt(i);
            if (c == '\uFFFD') {
                b.append('?');
            } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                b.append(String.format(java.util.Locale.ROOT, "\\x%02x", (int) c & 0xff));
            } else if (Character.isSurrogate(c) && !(Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1)))
                    && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1)))) {
                b.append('?');
            } else {
                b.append(c);
            }
        }
        if (b.length() >= max && b.length() < text.length()) {
            b.setLength(max);
            return b + "...";
        }
        return b.toString();
    }
}
