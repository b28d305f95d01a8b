package io.slurmwise.classify;

import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A log that arrives inside JSON strings, read as the log it carries: a line that is a JSON record (a CI API's or a
 * REST job record's {@code {"job_id": 42, "log": "step 1\nKilled\n"}}, Docker's json-file driver's one record per
 * line {@code {"log":"Killed\n","stream":"stderr",...}}) and whose strings carry line breaks is replaced by the lines
 * its strings carry, in order, unescaped ({@code \"}, {@code \\}, {@code \t}, a colour code's ESC written as a
 * {@code u001b} escape... read as the characters they stand for). The record's own syntax, its keys and its strings that carry no break (a stream name,
 * a time) are not the log and are left out. A record whose strings carry no break (a one-line log in one record) is
 * read as the value of its log key ({@link #LOG_KEYS}). Every reading of the classifier (signatures, the order of events, the last
 * line, a label and the line after it) then sees the carried lines as the log's lines.
 *
 * <p>Also read: a record that the tail cut at its start (a 10 MB one-line record of which the tail reader kept the
 * last {@code MAX_TAIL_BYTES}): the tail's first line, not itself a record, that ends like one (its string's closing
 * quote, then a comma or a closing brace or bracket), and a record cut at its end (its last string runs to the line's
 * end). A carried text with {@code \\n} (a Python repr inside the log) keeps that as the two characters it was, which
 * {@link LineText#segments} reads as it reads any such line.
 *
 * <p>Line numbers: the classifier orders events by the unfolded lines (a match's line index is 0-based in the unfolded
 * text); evidence names the line of the file that carried it ({@link #physicalLine}), so a one-record log's evidence
 * is all on its line 1, each piece with the carried line as its text.
 *
 * <p>Cost: a log without the two characters backslash and {@code n} and without a line that starts with a JSON
 * record's opening is returned as it is after one look; only a line that starts like a JSON record is unfolded. One linear pass; the unfolded text
 * is never longer than the record it came from.
 */
final class CarriedLog {

    /**
     * The keys under which a record without a carried line break keeps its line: Docker's json-file driver and Fluent
     * Bit ({@code log}), logstash and Elastic Common Schema ({@code message}), zap, logrus, slog and pino
     * ({@code msg}), {@code journalctl -o json} ({@code MESSAGE}), and a job record's {@code text}, {@code output},
     * {@code stdout}, {@code stderr}.
     */
    private static final java.util.Set<String> LOG_KEYS = java.util.Set.of("log", "message", "msg", "MESSAGE", "text",
            "output", "stdout", "stderr");

    /** Bytes of a line's start read to tell a JSON record ({@link LineText#isJsonRecord}). */
    private static final int HEAD = 64;

    private final byte[] text;
    // per unfolded record, ascending: its first line in the unfolded text, how many lines it became, its line in the log
    private final int[] firstOut;
    private final int[] countOut;
    private final int[] physical;

    private CarriedLog(byte[] text, int[] firstOut, int[] countOut, int[] physical) {
        this.text = text;
        this.firstOut = firstOut;
        this.countOut = countOut;
        this.physical = physical;
    }

    /** The log as read: {@code in} itself when no line is a JSON record carrying lines. */
    static CarriedLog of(byte[] in) {
        int candidate = candidate(in, 0);
        if (candidate < 0) {
            return new CarriedLog(in, new int[0], new int[0], new int[0]);
        }
        ByteArrayOutputStream out = null;
        int copied = 0;          // bytes of in already written to out
        int outLines = 0;        // lines of out so far (complete ones)
        int line = 0;            // line index in in at copied
        int records = 0;
        int[] firstOut = new int[4];
        int[] countOut = new int[4];
        int[] physical = new int[4];
        while (candidate >= 0) {
            int start = lineStart(in, candidate);
            int end = lineEnd(in, candidate);
            boolean record = isRecord(in, start, end);
            boolean fragment = !record && start == 0 && endsLikeRecord(in, start, end);
            byte[] carried = record || fragment ? carried(in, start, end, fragment) : null;
            if (carried != null) {
                if (out == null) {
                    out = new ByteArrayOutputStream(in.length);
                }
                int before = countLines(in, copied, start);
                out.write(in, copied, start - copied);
                outLines += before;
                line += before;
                if (records == firstOut.length) {
                    firstOut = Arrays.copyOf(firstOut, records * 2);
                    countOut = Arrays.copyOf(countOut, records * 2);
                    physical = Arrays.copyOf(physical, records * 2);
                }
                int n = countLines(carried, 0, carried.length) + 1;
                firstOut[records] = outLines;
                countOut[records] = n;
                physical[records] = line;
                records++;
                out.write(carried, 0, carried.length);
                outLines += n - 1; // the record's own line break (copied below) ends its last carried line
                copied = end;
            }
            candidate = end < in.length ? candidate(in, end + 1) : -1;
        }
        if (out == null) {
            return new CarriedLog(in, new int[0], new int[0], new int[0]);
        }
        out.write(in, copied, in.length - copied);
        return new CarriedLog(out.toByteArray(), Arrays.copyOf(firstOut, records), Arrays.copyOf(countOut, records),
                Arrays.copyOf(physical, records));
    }

    /** The text every reading reads. */
    byte[] text() {
        return text;
    }

    /** Whether any line was unfolded. */
    boolean unfolded() {
        return firstOut.length > 0;
    }

    /** The 0-based line of the log (as written) that carried unfolded line {@code lineIndex}. */
    long physicalLine(long lineIndex) {
        int k = Arrays.binarySearch(firstOut, (int) Math.min(lineIndex, Integer.MAX_VALUE));
        if (k < 0) {
            k = -k - 2; // the last record that starts before the line
        }
        if (k < 0) {
            return lineIndex; // before every unfolded record: lines as written
        }
        long after = lineIndex - (firstOut[k] + countOut[k]);
        return after < 0 ? physical[k] : physical[k] + 1 + after;
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH = 0x8080808080808080L;
    private static final long ONES = 0x0101010101010101L;
    private static final long BACKSLASHES = ONES * '\\';
    private static final long BRACES = ONES * '{';
    private static final long BRACKETS = ONES * '[';

    /**
     * The offset, at or after {@code from}, of the next backslash followed by {@code n} (an escaped line break) or of
     * the next line that starts (after blanks) with a JSON record's {@code {"} or {@code [{}; -1 when there is none.
     * Eight bytes at a time: a byte equal to {@code c} is a zero byte of {@code word ^ (c * ONES)}, and a zero byte
     * {@code x} is one where {@code (x - ONES) & ~x} has the high bit set.
     */
    private static int candidate(byte[] in, int from) {
        int i = from;
        while (i < in.length) {
            if (i + 8 <= in.length) {
                long w = (long) LONGS.get(in, i);
                long a = w ^ BACKSLASHES;
                long b = w ^ BRACES;
                long c = w ^ BRACKETS;
                if (((((a - ONES) & ~a) | ((b - ONES) & ~b) | ((c - ONES) & ~c)) & HIGH) == 0) {
                    i += 8;
                    continue; // none of the three bytes in these eight
                }
            }
            int end = Math.min(in.length, i + 8);
            for (; i < end; i++) {
                byte x = in[i];
                if (x == '\\' ? i + 1 < in.length && in[i + 1] == 'n' : (x == '{' || x == '[') && startsRecord(in, i)) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** Whether the {@code {} or {@code [} at {@code i} starts its line (after blanks) and a JSON record. */
    private static boolean startsRecord(byte[] in, int i) {
        int j = i;
        while (j > 0 && (in[j - 1] == ' ' || in[j - 1] == '\t')) {
            j--;
        }
        if (j > 0 && in[j - 1] != '\n') {
            return false;
        }
        int k = i + 1;
        while (k < in.length && (in[k] == ' ' || in[k] == '\t')) {
            k++;
        }
        return k < in.length && (in[k] == '"' || in[i] == '[' && in[k] == '{');
    }

    private static int lineStart(byte[] in, int i) {
        while (i > 0 && in[i - 1] != '\n') {
            i--;
        }
        return i;
    }

    /** The offset of the line break that ends the line at {@code i}, or the text's length. */
    private static int lineEnd(byte[] in, int i) {
        while (i < in.length && in[i] != '\n') {
            i++;
        }
        return i;
    }

    private static int countLines(byte[] b, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                n++;
            }
        }
        return n;
    }

    private static boolean isRecord(byte[] in, int start, int end) {
        return LineText.isJsonRecord(new String(in, start, Math.min(HEAD, end - start), StandardCharsets.UTF_8));
    }

    /**
     * Whether the line, the tail's first, ends like a JSON record whose start the tail cut off: after its first
     * unescaped quote (the carried string's end) comes a comma or a closing brace or bracket, and the line ends with a
     * closing brace or bracket.
     */
    private static boolean endsLikeRecord(byte[] in, int start, int end) {
        int last = end;
        while (last > start && Character.isWhitespace(in[last - 1])) {
            last--;
        }
        if (last == start || in[last - 1] != '}' && in[last - 1] != ']') {
            return false;
        }
        for (int i = start; i < last; i++) {
            if (in[i] == '\\') {
                i++;
            } else if (in[i] == '"') {
                int j = i + 1;
                while (j < last && (in[j] == ' ' || in[j] == '\t')) {
                    j++;
                }
                return j < last && (in[j] == ',' || in[j] == '}' || in[j] == ']');
            }
        }
        return false;
    }

    /**
     * The lines that the record's strings carry, unescaped and joined by line breaks (a string's final break ends its
     * last line, it starts no empty one), or null when no string carries a break. {@code inString}: the line starts
     * inside a string (a record the tail cut).
     */
    private static byte[] carried(byte[] in, int start, int end, boolean inString) {
        ByteArrayOutputStream all = new ByteArrayOutputStream(end - start);
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        boolean inside = inString;
        boolean broke = false;  // the current string carries a break
        boolean any = false;    // some string did
        boolean logKey = false; // the string being read is the value of a log key
        boolean key = false;    // the last string read was a key naming a log's text
        byte[] logValue = null; // the first log key's value
        int i = start;
        int stop = end > start && in[end - 1] == '\r' ? end - 1 : end;
        while (i < stop) {
            byte b = in[i];
            if (!inside) {
                if (b == '"') {
                    inside = true;
                    s.reset();
                    broke = false;
                    logKey = key;
                } else if (b != ':' && b != ' ' && b != '\t') {
                    key = false; // a value that is no string (a number, an object)
                }
                i++;
                continue;
            }
            if (b == '"') {
                any |= broke && take(s, all);
                inside = false;
                i++;
                int j = i;
                while (j < stop && (in[j] == ' ' || in[j] == '\t')) {
                    j++;
                }
                boolean isKey = j < stop && in[j] == ':';
                if (!isKey && logKey && logValue == null) {
                    logValue = s.toByteArray();
                }
                key = isKey && LOG_KEYS.contains(s.toString(StandardCharsets.UTF_8));
                continue;
            }
            if (b != '\\' || i + 1 >= stop) {
                s.write(b);
                i++;
                continue;
            }
            byte n = in[i + 1];
            i += 2;
            switch (n) {
                case 'n' -> {
                    s.write('\n');
                    broke = true;
                }
                case 'r' -> s.write('\r');
                case 't' -> s.write('\t');
                case 'b', 'f' -> s.write(' ');
                case 'u' -> i = unicode(in, i - 2, stop, s);
                default -> s.write(n); // \" \\ \/ and anything else: the character itself
            }
        }
        if (inside) {
            any |= broke && take(s, all); // a record cut at its end: its string runs to the line's end
        }
        if (!any && logValue != null) {
            return logValue; // a record of one line: its log key's value
        }
        return any ? all.toByteArray() : null;
    }

    /** Appends a carried string's lines to {@code all}; true. */
    private static boolean take(ByteArrayOutputStream s, ByteArrayOutputStream all) {
        byte[] b = s.toByteArray();
        int len = b.length;
        if (len > 1 && b[len - 1] == '\n') {
            len--; // a string's final break ends its last line
        }
        if (all.size() > 0) {
            all.write('\n');
        }
        all.write(b, 0, len);
        return true;
    }

    /**
     * Writes the character of the unicode escape (backslash, u, four hex digits) at {@code at} (a surrogate pair's two escapes as one
     * character) as UTF-8; returns the offset after what it read. A malformed escape is written as it is.
     */
    private static int unicode(byte[] in, int at, int stop, ByteArrayOutputStream s) {
        int c = hex4(in, at + 2, stop);
        if (c < 0) {
            s.write('\\');
            s.write('u');
            return at + 2;
        }
        int next = at + 6;
        int cp = c;
        if (Character.isHighSurrogate((char) c) && next + 1 < stop && in[next] == '\\' && in[next + 1] == 'u') {
            int low = hex4(in, next + 2, stop);
            if (low >= 0 && Character.isLowSurrogate((char) low)) {
                cp = Character.toCodePoint((char) c, (char) low);
                next += 6;
            }
        }
        if (Character.isSurrogate((char) cp) && cp <= 0xFFFF) {
            cp = 0xFFFD; // a lone surrogate
        }
        byte[] utf8 = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        s.write(utf8, 0, utf8.length);
        return next;
    }

    private static int hex4(byte[] in, int from, int stop) {
        if (from + 4 > stop) {
            return -1;
        }
        int v = 0;
        for (int i = from; i < from + 4; i++) {
            int d = Character.digit(in[i], 16);
            if (d < 0) {
                return -1;
            }
            v = v << 4 | d;
        }
        return v;
    }
}
