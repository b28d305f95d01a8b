package io.slurmwise.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Standard error read back as messages: an error is wrapped to the output's width, its further lines indented under
 * its text, so one message may take several lines. Tests that count messages or look for a phrase read it here, each
 * message one line again (its words joined by single spaces); tests of the layout read the raw text.
 */
public final class StderrText {

    private StderrText() {
    }

    /** Each message of {@code err} on one line. */
    public static List<String> messages(String err) {
        List<String> out = new ArrayList<>();
        for (String l : err.strip().split("\n")) {
            if (!out.isEmpty() && l.startsWith("  ") && !l.isBlank()) {
                out.set(out.size() - 1, out.get(out.size() - 1) + " " + l.strip());
            } else if (!l.isBlank()) {
                out.add(l);
            }
        }
        return out;
    }

    /** {@link #messages}, joined by newlines. */
    public static String text(String err) {
        return String.join("\n", messages(err)) + (err.isBlank() ? "" : "\n");
    }
}
