package io.slurmwise.backend;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The end of one job log: its raw bytes, read once, and the views of them that the diagnosis shares. The
 * classifier scans the bytes (logs hold invalid UTF-8 and binary noise, and a byte-level scan stays linear);
 * {@link #lines()} and {@link #lastLine()} are decoded on first use and kept, so the patch fixers, the renderer
 * and the classifier's last-line rules never decode the same bytes again.
 *
 * <pre>{@code
 * LogTail t = LogTail.of(LogStream.STDERR, "job.err", "step 1/10\nKilled\n");
 * t.lines();               // ["step 1/10", "Killed"], decoded once
 * t.lastLine().text();     // "Killed"
 * }</pre>
 */
public final class LogTail {

    /** Bytes of the last line that its view keeps: last-line rules look at how a log ends, not at 10 MB of it. */
    public static final int LAST_LINE_WINDOW = 4096;

    private final LogStream stream;
    private final String path;
    private final byte[] content;
    private final long firstLine;
    private final long fileSize;
    private final String problem;
    private volatile List<String> lines;
    private volatile Optional<LastLine> lastLine;

    /**
     * @param path      the file read, or null when no path is known
     * @param content   the last lines of the file, at most the requested count
     * @param firstLine the line number of the first line in {@code content} when known (the tail reached the
     *                  file's start), else 0: line numbers are then counted from the tail's start
     * @param fileSize  the file's size in bytes (-1 when unknown)
     * @param problem   why nothing could be read (missing, unreadable...), else null
     */
    public LogTail(LogStream stream, String path, byte[] content, long firstLine, long fileSize, String problem) {
        this.stream = stream;
        this.path = path;
        this.content = content == null ? new byte[0] : content;
        this.firstLine = firstLine;
        this.fileSize = fileSize;
        this.problem = problem;
    }

    public static LogTail of(LogStream stream, String path, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return new LogTail(stream, path, b, 1, b.length, null);
    }

    public static LogTail unavailable(LogStream stream, String path, String problem) {
        return new LogTail(stream, path, new byte[0], 0, -1, problem);
    }

    public LogStream stream() {
        return stream;
    }

    public String path() {
        return path;
    }

    /** The raw bytes (shared, not copied: read them, never write them). */
    public byte[] content() {
        return content;
    }

    public long firstLine() {
        return firstLine;
    }

    public long fileSize() {
        return fileSize;
    }

    public String problem() {
        return problem;
    }

    public Optional<String> optProblem() {
        return Optional.ofNullable(problem);
    }

    public boolean isEmpty() {
        return content.length == 0;
    }

    /** The same tail with another path and problem (a backend that shows where it looked). */
    public LogTail withPath(String shownPath, String shownProblem) {
        return new LogTail(stream, shownPath, content, firstLine, fileSize, shownProblem);
    }

    /** Lines decoded as UTF-8 (malformed bytes become U+FFFD), without their {@code \r}; decoded once. */
    public List<String> lines() {
        List<String> l = lines;
        if (l == null) {
            List<String> out = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < content.length; i++) {
                if (content[i] == '\n') {
                    out.add(decode(start, i));
                    start = i + 1;
                }
            }
            if (start < content.length) {
                out.add(decode(start, content.length));
            }
            l = Collections.unmodifiableList(out);
            lines = l;
        }
        return l;
    }

    /**
     * The last non-blank line: where it starts and at most its last {@value #LAST_LINE_WINDOW} bytes, decoded once.
     * Empty when the tail is blank. Only the end of the bytes is looked at, so the cost does not grow with the log.
     */
    public Optional<LastLine> lastLine() {
        Optional<LastLine> l = lastLine;
        if (l == null) {
            l = findLastLine();
            lastLine = l;
        }
        return l;
    }

    /**
     * The last non-blank line of a tail.
     *
     * @param offset the byte offset in {@link #content()} where the line starts ({@link #lineIndexAt} numbers it)
     * @param text   the line, or its last {@value #LAST_LINE_WINDOW} bytes
     */
    public record LastLine(int offset, String text) {
    }

    /** The 0-based index of the line that starts at or contains byte {@code offset} (counted on demand: linear). */
    public long lineIndexAt(int offset) {
        long index = 0;
        for (int i = 0; i < offset && i < content.length; i++) {
            if (content[i] == '\n') {
                index++;
            }
        }
        return index;
    }

    private Optional<LastLine> findLastLine() {
        int end = content.length;
        while (end > 0 && isBlank(content[end - 1])) {
            end--;
        }
        if (end == 0) {
            return Optional.empty();
        }
        int start = end;
        while (start > 0 && content[start - 1] != '\n' && end - start < LAST_LINE_WINDOW) {
            start--;
        }
        return Optional.of(new LastLine(start, new String(content, start, end - start, StandardCharsets.UTF_8)));
    }

    private static boolean isBlank(byte b) {
        return b == '\n' || b == '\r' || b == ' ' || b == '\t';
    }

    private String decode(int from, int to) {
        int end = to > from && content[to - 1] == '\r' ? to - 1 : to;
        return new String(content, from, end - from, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "LogTail[" + stream + " " + path + ", " + content.length + " bytes" + (problem == null ? "" : ", " + problem)
                + "]";
    }
}
