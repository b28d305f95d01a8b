package io.slurmwise.backend;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The end of one job log, as raw bytes (logs hold invalid UTF-8 and binary noise; decoding happens per line).
 *
 * @param path           the file read, or null when no path is known
 * @param content        the last lines of the file, at most the requested count
 * @param firstLine      the line number of the first line in {@code content} when known (the tail reached the
 *                       file's start), else 0: line numbers are then counted from the tail's start
 * @param fileSize       the file's size in bytes (-1 when unknown)
 * @param problem        why nothing could be read (missing, unreadable...), else null
 */
public record LogTail(LogStream stream, String path, byte[] content, long firstLine, long fileSize, String problem) {

    public LogTail {
        content = content == null ? new byte[0] : content;
    }

    public static LogTail of(LogStream stream, String path, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return new LogTail(stream, path, b, 1, b.length, null);
    }

    public static LogTail unavailable(LogStream stream, String path, String problem) {
        return new LogTail(stream, path, new byte[0], 0, -1, problem);
    }

    public Optional<String> optProblem() {
        return Optional.ofNullable(problem);
    }

    public boolean isEmpty() {
        return content.length == 0;
    }

    /** Lines decoded as UTF-8 (malformed bytes become U+FFFD). */
    public List<String> lines() {
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
        return out;
    }

    private String decode(int from, int to) {
        int end = to > from && content[to - 1] == '\r' ? to - 1 : to;
        return new String(content, from, end - from, StandardCharsets.UTF_8);
    }
}
