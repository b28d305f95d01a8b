package io.slurmwise.mcp.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into newline-terminated lines without ever holding more than {@code cap} bytes of one: a
 * longer line is read through and dropped, keeping only its first {@link #HEAD} bytes (where a client's id and
 * method usually are; fewer when the cap is smaller). A trailing {@code \r} is removed; a last line without a newline still
 * counts, and {@link #endedWithoutNewline()} says it had none.
 */
final class LineReader {

    /** Bytes kept of an oversized line. */
    static final int HEAD = 64 * 1024;

    /** One framing step: a whole line, an oversized one, or the end of input. */
    sealed interface Frame permits Line, TooLong, End {
    }

    /** A line of {@code length} bytes in {@code bytes} (valid until the next call). */
    record Line(byte[] bytes, int length) implements Frame {
    }

    /** A line of {@code length} bytes, over the cap; {@code head} is its beginning. */
    record TooLong(byte[] head, long length) implements Frame {
    }

    /** The input closed. */
    record End() implements Frame {
    }

    private final InputStream in;
    private final int cap;
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private int lim;
    private byte[] line = new byte[16 * 1024];
    private boolean unterminated;

    LineReader(InputStream in, int cap) {
        this.in = in;
        this.cap = cap;
    }

    Frame next() throws IOException {
        if (line.length > (1 << 20)) {
            line = new byte[16 * 1024];  // a big message came and went: give its buffer back
        }
        int len = 0;
        long total = 0;
        boolean over = false;
        boolean any = false;
        while (true) {
            if (pos == lim) {
                int n = in.read(buf);
                if (n < 0) {
                    unterminated = any;
                    return any ? frame(len, total, over) : new End();
                }
                pos = 0;
                lim = n;
                continue;
            }
            any = true;
            int nl = pos;
            while (nl < lim && buf[nl] != '\n') {
                nl++;
            }
            int chunk = nl - pos;
            total += chunk;
            if (!over && len + chunk > cap) {
                over = true;
            }
            int room = over ? Math.min(chunk, Math.min(HEAD, cap) - len) : chunk;
            if (room > 0) {
                if (len + room > line.length) {
                    line = Arrays.copyOf(line, Math.max(len + room, Math.min(cap, line.length * 2)));
                }
                System.arraycopy(buf, pos, line, len, room);
                len += room;
            }
            if (nl < lim) {
                pos = nl + 1;
                return frame(len, total, over);
            }
            pos = lim;
        }
    }

    /**
     * Whether the frame just returned was cut by the end of input: its bytes had no newline after them (a client that
     * wrote its last message without one and closed stdin). It is still read as a line.
     */
    boolean endedWithoutNewline() {
        return unterminated;
    }

    private Frame frame(int len, long total, boolean over) {
        if (over) {
            return new TooLong(Arrays.copyOf(line, Math.min(len, Math.min(HEAD, cap))), total);
        }
        if (len > 0 && line[len - 1] == '\r') {
            len--;
        }
        return new Line(line, len);
    }
}
