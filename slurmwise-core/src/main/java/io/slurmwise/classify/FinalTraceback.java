package io.slurmwise.classify;

import io.slurmwise.backend.LogTail;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A Python traceback that ends a log: the interpreter's report of the exception nobody caught, which ended the
 * program. CPython prints it as {@code Traceback (most recent call last):}, the frames indented below it, and the
 * exception's line ({@code ZeroDivisionError: division by zero}) last, at the header's column; a chained exception
 * ({@code During handling of the above exception, another exception occurred:}, {@code The above exception was the
 * direct cause of the following exception:}) prints the earlier traceback first, and the whole chain is the end.
 *
 * <p>Only the end of the log is read (the last line, then back to its header), once per log, and only when the last
 * line names an exception: the cost does not grow with the lines a log has. A traceback that other output cuts into
 * (several ranks writing at once) or whose message runs past one line is not recognised: nothing changes then.
 */
final class FinalTraceback {

    static final String HEADER = "Traceback (most recent call last):";
    private static final byte[] HEADER_BYTES = HEADER.getBytes(StandardCharsets.US_ASCII);
    private static final String[] CHAINS = {
            "During handling of the above exception, another exception occurred:",
            "The above exception was the direct cause of the following exception:",
    };
    /** How far back from the last line a header is looked for: a deep traceback, not a whole log. */
    static final int WINDOW = 256 * 1024;
    /** At most this many chained tracebacks are followed back. */
    private static final int MAX_CHAIN = 8;
    /**
     * The exception's line as CPython writes it: the exception's (qualified) name, then its message after a colon,
     * or nothing. The names are the built-in hierarchy's endings ({@code ...Error}, {@code ...Exception},
     * {@code KeyboardInterrupt}, {@code SystemExit}, {@code StopIteration}) and a library's own that follow them.
     */
    private static final Pattern EXCEPTION_LINE = Pattern.compile(
            "^[A-Za-z_][\\w.]*(?:Error|Exception|Interrupt|Exit|Iteration|Failure)(?::\\s.*|:?\\s*)$");

    /** Where the final traceback (its chain's first header) starts: the 0-based index of that header's line. */
    private final long startLine;
    private final int startOffset;

    private FinalTraceback(long startLine, int startOffset) {
        this.startLine = startLine;
        this.startOffset = startOffset;
    }

    long startLine() {
        return startLine;
    }

    /** The byte offset in the log where the header's line starts. */
    int startOffset() {
        return startOffset;
    }

    /** The traceback that ends {@code tail}, when its last non-blank line is an uncaught exception's line. */
    static Optional<FinalTraceback> of(LogTail tail) {
        Optional<LogTail.LastLine> last = tail.lastLine();
        if (last.isEmpty() || !namesAnException(last.get().text())) {
            return Optional.empty(); // most logs: one look at the last line, no search
        }
        byte[] log = tail.content();
        int lastStart = last.get().offset();
        int header = lastIndexOf(log, HEADER_BYTES, lastStart, Math.max(0, lastStart - WINDOW));
        if (header < 0) {
            return Optional.empty();
        }
        int headerLine = lineStart(log, header);
        String prefix = new String(log, headerLine, header - headerLine, StandardCharsets.UTF_8);
        String lastText = decode(log, lastStart, lineEnd(log, lastStart));
        if (!lastText.startsWith(prefix)
                || !EXCEPTION_LINE.matcher(lastText.substring(prefix.length()).stripTrailing()).matches()) {
            return Optional.empty();
        }
        // between the header and the exception's line: only the frames, indented under the header
        int at = lineEnd(log, header) + 1;
        while (at < lastStart) {
            int end = lineEnd(log, at);
            String line = decode(log, at, end);
            if (!line.isBlank() && !(line.startsWith(prefix) && line.length() > prefix.length()
                    && Character.isWhitespace(line.charAt(prefix.length())))) {
                return Optional.empty();
            }
            at = end + 1;
        }
        // a chain's earlier tracebacks are part of the same end
        int start = headerLine;
        for (int n = 0; n < MAX_CHAIN; n++) {
            int previous = previousNonBlankLine(log, start);
            if (previous < 0) {
                break;
            }
            String text = decode(log, previous, lineEnd(log, previous)).strip();
            if (!isChain(text)) {
                break;
            }
            int earlier = lastIndexOf(log, HEADER_BYTES, previous, Math.max(0, previous - WINDOW));
            if (earlier < 0) {
                break;
            }
            start = lineStart(log, earlier);
        }
        return Optional.of(new FinalTraceback(tail.lineIndexAt(start), start));
    }

    /**
     * The test before any search, on the one last line: an exception's name ends in one of the hierarchy's endings
     * and is followed by its message's colon or by nothing ({@code srun: error: ... Exited with exit code 1} is no
     * exception's line).
     */
    private static boolean namesAnException(String line) {
        return NAMED.matcher(line).find();
    }

    private static final Pattern NAMED = Pattern.compile(
            "(?:Error|Exception|Interrupt|Exit|Iteration|Failure)(?::|\\s*$)");

    private static boolean isChain(String line) {
        for (String c : CHAINS) {
            if (line.endsWith(c)) {
                return true;
            }
        }
        return false;
    }

    /** The start of the last non-blank line that ends before {@code lineStart}, or -1. */
    private static int previousNonBlankLine(byte[] log, int lineStart) {
        int end = lineStart - 1; // the newline that ends the previous line
        while (end > 0) {
            int start = lineStart(log, end - 1);
            if (!decode(log, start, end).isBlank()) {
                return start;
            }
            end = start - 1;
        }
        return -1;
    }

    static int lineStart(byte[] log, int offset) {
        int i = Math.min(offset, log.length);
        while (i > 0 && log[i - 1] != '\n') {
            i--;
        }
        return i;
    }

    static int lineEnd(byte[] log, int offset) {
        int i = offset;
        while (i < log.length && log[i] != '\n') {
            i++;
        }
        return i;
    }

    static String decode(byte[] log, int from, int to) {
        int end = to > from && log[to - 1] == '\r' ? to - 1 : to;
        return new String(log, from, Math.max(0, end - from), StandardCharsets.UTF_8);
    }

    /** The last occurrence of {@code needle} starting before {@code before} and at or after {@code floor}, or -1. */
    private static int lastIndexOf(byte[] log, byte[] needle, int before, int floor) {
        outer:
        for (int i = Math.min(before - 1, log.length - needle.length); i >= floor; i--) {
            for (int j = 0; j < needle.length; j++) {
                if (log[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
