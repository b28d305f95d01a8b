package io.slurmwise.classify;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.taxonomy.FailureKind;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where to read first when no rule decided: the last lines of each log that read like an error (a program's own
 * message that no note knows is usually the last such line), or, when none does, the line the log ends with. They
 * are leads for a reader, never evidence: an {@code unknown} finding carries them and picks no cause from them.
 */
final class Leads {

    /** Lines an {@code unknown} finding carries at most. */
    static final int MAX = 3;

    /**
     * Words programs and shells use when something went wrong, in any case: the generic ones, not any kind's.
     * A line with one is a lead; a log's last such lines are the likeliest place of the failure.
     */
    private static final Pattern ERROR_WORDS = Pattern.compile("(?i)\\b(?:error|errors|err|fatal|exception|"
            + "fail|failed|failure|abort|aborted|killed|denied|not found|no such|cannot|can't|could not|couldn't|"
            + "unable to|invalid|illegal|traceback|segmentation|core dumped|panic|terminated|timed out|timeout|"
            + "exceeded|refused|unexpected|missing|non-zero exit|exit (?:status|code) [1-9])\\b");

    private Leads() {
    }

    /** The leads of these logs: stderr's before stdout's, each log's in line order, at most {@link #MAX}. */
    static List<Evidence> of(List<LogTail> logs) {
        List<Evidence> stderr = new ArrayList<>();
        List<Evidence> stdout = new ArrayList<>();
        for (LogTail tail : logs) {
            if (tail == null || tail.isEmpty()) {
                continue;
            }
            (tail.stream() == LogStream.STDOUT ? stdout : stderr).addAll(ofLog(tail));
        }
        List<Evidence> out = new ArrayList<>(stderr);
        out.addAll(stdout);
        return List.copyOf(out.subList(0, Math.min(MAX, out.size())));
    }

    /** One log's leads: its last {@link #MAX} distinct lines with an error word, else its last non-blank line. */
    private static List<Evidence> ofLog(LogTail tail) {
        Evidence.Source source = tail.stream() == LogStream.STDOUT ? Evidence.Source.STDOUT : Evidence.Source.STDERR;
        boolean inFile = tail.firstLine() > 0;
        long base = inFile ? tail.firstLine() : 1;
        List<String> lines = tail.lines();
        List<Evidence> found = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int lastNonBlank = -1;
        for (int i = lines.size() - 1; i >= 0 && found.size() < MAX; i--) {
            String text = LineText.readable(lines.get(i)).strip();
            if (text.isEmpty()) {
                continue;
            }
            if (lastNonBlank < 0) {
                lastNonBlank = i;
            }
            if (ERROR_WORDS.matcher(text).find() && seen.add(text)) {
                found.add(0, new Evidence(source, base + i, inFile, text, FailureKind.UNKNOWN, 0));
            }
        }
        if (found.isEmpty() && lastNonBlank >= 0) {
            found.add(new Evidence(source, base + lastNonBlank, inFile, LineText.readable(lines.get(lastNonBlank)).strip(),
                    FailureKind.UNKNOWN, 0));
        }
        return found;
    }
}
