package io.slurmwise.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One message line in the forms logs really arrive in: as printed, lowercased, timestamped, prefixed, coloured, behind a
 * progress bar, quoted in Markdown from a web page (no-break spaces, typographic quotes), as Markdown inline code with
 * HTML entities, and carried with escaped line breaks inside a wrapper's exception (a Python repr of a command's stderr).
 */
public final class LogForms {

    /** A wrapper's exception carrying a command's stderr with its line breaks escaped. */
    private static final String REPR = "RuntimeError('Command exited with non-zero exit code.\\nExit code: 1\\nstderr:\\n";

    private LogForms() {
    }

    static List<String> of(String line) {
        return List.of(line,
                line.toLowerCase(Locale.ROOT),
                "[2024-05-01T10:00:00.123] " + line,
                "CRASH: " + line,
                "\u001b[1;31m" + line + "\u001b[0m",
                " 45%|####      | 45/100 [00:10<00:12,  4.50it/s]\r" + line,
                "> " + typographic(line),
                "`" + entities(line) + "`",
                REPR + line);
    }

    /** As a web page or a UTF-8 locale shows it: no-break spaces, and typographic quotes for ASCII ones. */
    static String typographic(String line) {
        return typographic(line, true);
    }

    /** One line with its ASCII quotes as a UTF-8 locale's tools and editors write them: {@code ‘x’}, {@code “x”}. */
    public static String typographicQuotes(String line) {
        return typographic(line, false);
    }

    private static String typographic(String line, boolean spaces) {
        StringBuilder b = new StringBuilder(line.length());
        boolean openSingle = true;
        boolean openDouble = true;
        for (char c : line.toCharArray()) {
            if (c == ' ' && spaces) {
                b.append('\u00a0');
            } else if (c == '\'') {
                b.append(openSingle ? '\u2018' : '\u2019');
                openSingle = !openSingle;
            } else if (c == '"') {
                b.append(openDouble ? '\u201c' : '\u201d');
                openDouble = !openDouble;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** As an HTML page or an XML report escapes it. */
    static String entities(String line) {
        return line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }

    /**
     * A log of several lines in the same forms: each form applied to every line, the lines joined by line breaks, except
     * the wrapper's exception, which carries all of them in one string with escaped breaks.
     */
    static List<String> of(List<String> lines) {
        List<List<String>> each = lines.stream().map(LogForms::of).toList();
        List<String> out = new ArrayList<>();
        int reprForm = each.get(0).size() - 1;
        for (int form = 0; form < reprForm; form++) {
            int f = form;
            out.add(String.join("\n", each.stream().map(forms -> forms.get(f)).toList()));
        }
        out.add(REPR + String.join("\\n", lines));
        return out;
    }
}
