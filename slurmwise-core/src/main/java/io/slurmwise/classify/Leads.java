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
     * A line with one is a lead; a log's last such lines are the likeliest place of the failure. An exception's
     * class name counts ({@code KeyError: 'batch_size'}, {@code java.lang.IllegalStateException}): a Python
     * traceback's meaning is on its last line, not on {@code Traceback (most recent call last):} (the real lab's 190).
     */
    private static final Pattern ERROR_WORDS = Pattern.compile("(?i)\\b(?:\\w*error|errors|err|fatal|\\w*exception|"
            + "fail|failed|failure|abort|aborted|killed|denied|not found|no such|cannot|can't|could not|couldn't|"
            + "unable to|invalid|illegal|traceback|segmentation|core dumped|panic|terminated|timed out|timeout|"
            + "exceeded|refused|unexpected|missing|non-zero exit|exit (?:status|code) [1-9])\\b|\\bMPI_ABORT was invoked\\b");

    /**
     * What a launcher or MPI library prints after a process failed, as its consequence: srun's per-task summary
     * ({@code srun: error: cn047: tasks 384-511: Killed}, {@code task 217: Exited with exit code 3}) and its step's
     * abort or cancel, Open MPI's note that MPI_ABORT kills every process (ompi/mpi/help-mpi-api.txt), its
     * MPI_ERRORS_ARE_FATAL box (ompi/errhandler/help-mpi-errors.txt) and its "Local abort" (ompi/runtime/ompi_mpi_abort.c),
     * mpirun's exit report. Order matters: after the program's own message (GROMACS's fatal error, a solver's
     * {@code ERROR: negative density ...}, Open MPI's help text that it lacks SLURM's PMI support) these never outrank
     * it; alone, they are still where to read.
     */
    private static final Pattern CONSEQUENCE = Pattern.compile("(?i)^(?:srun: error: \\S+: tasks? [\\d,-]+: (?:Killed|Exited "
            + "with exit code \\d+|Terminated)\\b|srun: Job step aborted\\b|slurmstepd: error: \\*\\*\\* STEP \\S+ (?:ON \\S+ )?"
            + "CANCELLED AT\\b|NOTE: invoking MPI_ABORT causes Open MPI to kill\\b|(?:\\[[^\\]]*\\] )?\\*\\*\\*\\s+(?:An error "
            + "occurred in MPI_\\w+|on a NULL communicator|MPI_ERRORS_ARE_FATAL\\b|and potentially your MPI job)|(?:\\[[^\\]]*\\] )?"
            + "Local abort (?:before|after) MPI_\\w+|(?:mpirun|prterun) has exited due to process rank\\b)");

    /**
     * A header that says only that an error follows, on a line of its own: GROMACS's fatal-error box
     * (src/gromacs/utility/fatalerror.cpp) prints "Fatal error:" and the message on the next line ("Too many LINCS
     * warnings (1000)"). The line after it is the message, read with it.
     */
    private static final Pattern BARE_HEADER = Pattern.compile("(?i)^\\s*(?:fatal error|error|fatal|error message)\\s*:\\s*$");

    /** Python's traceback header, which its exception line ends. */
    private static final Pattern TRACEBACK = Pattern.compile("Traceback \\(most recent call last\\):?");

    /** Lines one message spans at most: Open MPI's help paragraphs are four to eight lines, doubled in some pastes. */
    private static final int MAX_MESSAGE_LINES = 16;

    /** The shortest line read as wrapped: formatters wrap at 70 to 80 columns, a line this long was filled. */
    private static final int WRAPPED_LINE = 40;

    /** The widest line read as wrapped by a formatter: a longer one is a line as its program printed it. */
    private static final int WIDEST_WRAP = 160;

    /**
     * How a wrapped sentence goes on: a lower-case word (a one-letter one only if it is {@code a} or {@code i}), with at
     * most one punctuation mark after it, then a space or the line's end; then not a second word ending in a colon
     * (a program's {@code name: } or {@code name error: } prefix). {@code distributed.worker - INFO},
     * {@code warnings.warn(}, {@code t #2af1} and {@code srun: error:} start messages of their own.
     */
    private static final Pattern PROSE_START = Pattern.compile("(?:[a-z][a-z'-]+|[ai])[,.;)]?(?:\\s|$)(?![a-z]+: )");

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

    /**
     * One log's leads: its last {@link #MAX} distinct messages with an error word, each at its first line, else its
     * last non-blank line. A message is a line with the lines a formatter wrapped it onto ({@link #continues}): Open
     * MPI's and PMIx's help texts, an exception text a library wrapped at 70 or 80 columns. Its lead is the line it
     * starts at, with the whole sentence as text, not three leads that are pieces of one boilerplate paragraph.
     */
    private static List<Evidence> ofLog(LogTail tail) {
        Evidence.Source source = tail.stream() == LogStream.STDOUT ? Evidence.Source.STDOUT : Evidence.Source.STDERR;
        boolean inFile = tail.firstLine() > 0;
        long base = inFile ? tail.firstLine() : 1;
        List<String> lines = tail.lines();
        // the messages, in line order: [first line, last line] of each, over the non-blank lines
        List<int[]> messages = new ArrayList<>();
        int lastNonBlank = -1;
        for (int i = 0; i < lines.size(); i++) {
            String raw = LineText.stripAnsi(lines.get(i));
            if (raw.isBlank()) {
                continue;
            }
            int[] open = messages.isEmpty() ? null : messages.get(messages.size() - 1);
            boolean header = open != null && open[0] == open[1] && i - open[1] <= 2
                    && BARE_HEADER.matcher(LineText.stripAnsi(lines.get(open[0]))).matches();
            if (header || open != null && i - open[1] <= 2 && i - open[0] < MAX_MESSAGE_LINES
                    && continues(LineText.stripAnsi(lines.get(open[1])), raw)) {
                open[1] = i;
            } else {
                messages.add(new int[] {i, i});
            }
            lastNonBlank = i;
        }
        List<Evidence> found = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        // a launcher's or MPI library's consequence lines give way to an error message of the program before them
        List<String> texts = new ArrayList<>(messages.size());
        boolean causeBefore = false;
        for (int[] msg : messages) {
            StringBuilder text = new StringBuilder();
            for (int i = msg[0]; i <= msg[1]; i++) {
                String part = LineText.readable(lines.get(i)).strip();
                if (!part.isEmpty()) {
                    text.append(text.length() == 0 ? "" : " ").append(part);
                }
            }
            texts.add(text.toString());
        }
        boolean[] consequence = new boolean[messages.size()];
        for (int m = 0; m < messages.size(); m++) {
            boolean c = CONSEQUENCE.matcher(texts.get(m)).find();
            consequence[m] = c && causeBefore;
            causeBefore |= !c && ERROR_WORDS.matcher(texts.get(m)).find() && !TRACEBACK.matcher(texts.get(m)).matches();
        }
        for (int m = messages.size() - 1; m >= 0 && found.size() < MAX; m--) {
            if (consequence[m]) {
                continue;
            }
            int[] msg = messages.get(m);
            String message = texts.get(m);
            // a traceback's header says only that one follows: its exception line, later, is the message
            if (!found.isEmpty() && TRACEBACK.matcher(message).matches()) {
                continue;
            }
            if (ERROR_WORDS.matcher(message).find() && seen.add(message)) {
                found.add(0, new Evidence(source, base + msg[0], inFile, message, FailureKind.UNKNOWN, 0));
            }
        }
        if (found.isEmpty() && lastNonBlank >= 0) {
            found.add(new Evidence(source, base + lastNonBlank, inFile, LineText.readable(lines.get(lastNonBlank)).strip(),
                    FailureKind.UNKNOWN, 0));
        }
        return found;
    }

    /**
     * Whether {@code next} is the rest of the sentence {@code previous} was wrapped from: {@code previous} is as long as
     * a line a formatter filled ({@link #WRAPPED_LINE} to {@link #WIDEST_WRAP} columns) and stops without ending its
     * sentence, and {@code next} goes on in prose: unindented (an indented line is a frame, a table row or a quoted
     * block of its own), its first word a lower-case word ({@link #PROSE_START}), not a logger's {@code module.name},
     * a call or a program's {@code name: } prefix, which start messages of their own. One blank line may sit between
     * them: a paste that doubled every line break.
     */
    static boolean continues(String previous, String next) {
        String p = previous.stripTrailing();
        if (p.length() < WRAPPED_LINE || p.length() > WIDEST_WRAP || next.isEmpty()
                || Character.isWhitespace(next.charAt(0))) {
            return false;
        }
        char end = p.charAt(p.length() - 1);
        if (end == '.' || end == '!' || end == '?') {
            return false;
        }
        return PROSE_START.matcher(next).lookingAt();
    }
}
