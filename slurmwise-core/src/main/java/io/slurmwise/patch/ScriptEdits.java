package io.slurmwise.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;

/** Where environment lines go in a batch script and how they are added: shared by the fixers that export. */
final class ScriptEdits {

    private final Patterns patterns;

    ScriptEdits(Patterns patterns) {
        this.patterns = patterns;
    }

    Patterns patterns() {
        return patterns;
    }

    /** The script with {@code export NAME=value} lines it does not set yet, next to its other exports. */
    record Exported(BatchScript script, List<String> added) {
    }

    Exported exportMissing(BatchScript s, List<String[]> vars) {
        List<String> lines = new ArrayList<>();
        for (String[] v : vars) {
            if (exported(s, v[0]).isEmpty()) {
                lines.add("export " + v[0] + "=" + v[1]);
            }
        }
        return new Exported(lines.isEmpty() ? s : s.insertLines(envAnchor(s), lines), lines);
    }

    /** The line of {@code export NAME=...} in the script body, if any. */
    Optional<Integer> exported(BatchScript s, String name) {
        for (int i = s.headerEnd(); i < s.lines().size(); i++) {
            Optional<Matcher> m = patterns.find("script.export", s.lines().get(i));
            if (m.isPresent() && m.get().group(1).equals(name)) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /** Where environment lines go: after the last export before the first command that launches work, else before it. */
    int envAnchor(BatchScript s) {
        int launch = launchLine(s);
        for (int i = launch - 1; i >= s.headerEnd(); i--) {
            if (patterns.matches("script.export", s.lines().get(i))) {
                return i + 1;
            }
        }
        return launch;
    }

    /** The first line that launches the work (srun, python, mpirun, ...), or the end of the script. */
    int launchLine(BatchScript s) {
        for (int i = s.headerEnd(); i < s.lines().size(); i++) {
            if (patterns.matches("script.launch", s.lines().get(i))) {
                return i;
            }
        }
        int end = s.lines().size();
        while (end > s.headerEnd() && s.lines().get(end - 1).isBlank()) {
            end--;
        }
        return Math.max(end, s.headerEnd());
    }

    static Optional<Integer> intOption(BatchScript s, String name) {
        return s.option(name).map(BatchScript.Option::value).flatMap(v -> {
            try {
                return Optional.of(Integer.parseInt(v.strip()));
            } catch (NumberFormatException | NullPointerException e) {
                return Optional.empty();
            }
        });
    }

    /** Whether {@code word} stands alone in {@code line} (between blanks, quotes or the line's ends). */
    static boolean containsWord(String line, String word) {
        int i = line.indexOf(word);
        while (i >= 0) {
            boolean startOk = i == 0 || Character.isWhitespace(line.charAt(i - 1)) || line.charAt(i - 1) == '"';
            int end = i + word.length();
            boolean endOk = end == line.length() || Character.isWhitespace(line.charAt(end)) || line.charAt(end) == '"';
            if (startOk && endOk) {
                return true;
            }
            i = line.indexOf(word, i + 1);
        }
        return false;
    }
}
