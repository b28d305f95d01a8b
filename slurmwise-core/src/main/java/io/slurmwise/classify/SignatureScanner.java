package io.slurmwise.classify;

import io.slurmwise.taxonomy.Signature;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the lines of a log that match any signature, the way grep does: a literal every match must contain is
 * extracted from each regex, one Aho-Corasick pass over the raw bytes (ASCII case-folded, ANSI colour escapes
 * skipped) finds the candidate lines, and only those are decoded and tested with the signature's RE2 regex, on
 * the text a reader sees ({@link LineText}: no colour codes, each {@code \r} overwrite apart, launcher and
 * logger prefixes peeled off for anchored patterns, a renamed SLURM command read by its own name; the backslash of a
 * string's {@code \"}, {@code \'} or {@code \/} is skipped like a colour code, so that a line carried in a JSON string or a
 * Python repr has its literals). Signatures
 * without a usable literal are tested on every line. The pass is linear in the input: each (line, signature) pair
 * is tested at most once (a line read again under a command's own name, at most once per renamed prefix) and the
 * regex sees at most {@link #WINDOW} bytes around the hit, so a 10 MB single line is cheap.
 */
public final class SignatureScanner {

    /** Bytes either side of a literal hit that a regex sees on a very long line. */
    static final int WINDOW = 4096;
    private static final int MIN_LITERAL = 3;
    /** States the table numbers in a {@code char}: a signature whose literals would pass it is tested on every line. */
    private static final int MAX_STATES = Character.MAX_VALUE + 1;
    private static final byte[] FOLD = new byte[256];
    /**
     * Widths that terminals, {@code fold} and mail clients wrap lines at: a line of exactly such a width followed by
     * a line that does not start with an indent is read as one message cut in two (a pasted terminal log). A text
     * can also show its own terminal's width ({@link #terminalWidth}).
     */
    private static final boolean[] WRAP_WIDTH = new boolean[257];
    /** The narrowest terminal width read from a text's own lines; narrower equal lines are a table, not a wrap. */
    private static final int MIN_TERMINAL_WIDTH = 60;
    /** The widest one: a terminal is rarely wider, and wider equal lines are more often records than a wrap. */
    private static final int MAX_TERMINAL_WIDTH = 512;
    /** Bytes from a text's start that its terminal width is read from: a wrapped paste shows it early. */
    private static final int WIDTH_SAMPLE = 256 * 1024;
    /**
     * The widest width a word wrapper is read at ({@code textwrap}'s 70, mail's 72 to 78, Rich's 80 off a terminal,
     * {@code fmt}, {@code fold -s}); wider texts with lines that merely end near their longest are logs, not prose.
     */
    private static final int MAX_WORD_WRAP_WIDTH = 160;
    /** At most this many physical lines are joined into one wrapped message. */
    private static final int MAX_JOINED = 8;

    static {
        for (int w : new int[] {72, 76, 78, 79, 80, 100, 120, 128, 132, 150, 160, 200, 240, 250, 256}) {
            WRAP_WIDTH[w] = true;
        }
    }

    static {
        for (int i = 0; i < 256; i++) {
            FOLD[i] = (byte) (i >= 'A' && i <= 'Z' ? i + 32 : i);
        }
    }

    /** Receives each (signature, line) match. */
    @FunctionalInterface
    public interface MatchSink {
        /**
         * @param line    the line that matched (the whole message when only the message across a wrap matched)
         * @param message the whole message the line is part of when a terminal or a word wrapper wrapped it at the
         *                width the text shows ({@link #terminalWidth}, {@link #wordWrapWidth}), else {@code line}:
         *                what a rule that reads the line's context
         *                (a benign message's words) reads
         */
        void match(Signature signature, long lineIndex, String line, String message);

        /**
         * Whether a match of {@code signature} on this one line, were there one, would be used: a line that the
         * caller would drop anyway (benign noise to the signature's kind) is then not tested. Asked only for a line
         * that is its whole message (no wrap joins it), so the answer is the one the caller gives a match there.
         * Logs repeat such lines with new numbers (NCCL's plugin warning on every rank), and a regex costs more
         * than the question.
         */
        default boolean wants(Signature signature, String line) {
            return true;
        }
    }

    private final List<Signature> signatures;
    private final int[] classOf;        // byte -> its class: each folded byte some literal has, or 0 for all others
    private final int width;            // a state's row: one entry per class
    private final char[] delta;         // state * width + class -> state (the states are counted below 2^16)
    private final int[][] outputs;      // state -> signature indexes whose literal ends here
    private final int[] always;         // signatures tested on every line
    private final SignatureRegex[] regexes; // how each signature is tested (lowered (?i), ^ anchors peeled)
    private final int renamed;          // the output index of a renamed SLURM command's literals (CommandName)

    /**
     * Every match is reported, benign noise included: the caller applies the kinds' ignore lists (the classifier
     * does, in one place for every rule).
     */
    public SignatureScanner(List<Signature> signatures) {
        this.signatures = List.copyOf(signatures);
        List<Integer> alwaysList = new ArrayList<>();
        List<List<byte[]>> literalBytes = new ArrayList<>();
        // the alphabet is the bytes the literals have, each a class of its own (a UTF-8 byte of a translation too, so
        // that no other text stands in for it), all other bytes one class: a row per state is only as wide as that
        // (about 60 for ASCII literals, 144 with the translations' bytes), and the whole table stays smaller
        classOf = new int[256];
        int classes = 1;
        int bytesTotal = 0;
        for (Signature sig : this.signatures) {
            List<byte[]> bytes = new ArrayList<>();
            for (String lit : Literals.required(sig.pattern())) {
                byte[] lb = lit.getBytes(StandardCharsets.UTF_8);
                for (byte b : lb) {
                    int f = FOLD[b & 0xff] & 0xff;
                    if (classOf[f] == 0) {
                        classOf[f] = classes++;
                    }
                }
                bytes.add(lb);
                bytesTotal += lb.length;
            }
            literalBytes.add(bytes);
        }
        // a renamed command's prefix (sbatch.bin:) is read as the command's own: its literals report index `renamed`
        renamed = this.signatures.size();
        List<byte[]> renamedBytes = new ArrayList<>();
        for (String lit : CommandName.literals()) {
            byte[] lb = lit.getBytes(StandardCharsets.US_ASCII);
            for (byte b : lb) {
                if (classOf[b] == 0) {
                    classOf[b] = classes++;
                }
            }
            renamedBytes.add(lb);
            bytesTotal += lb.length;
        }
        literalBytes.add(renamedBytes);
        for (int b = 0; b < 256; b++) {
            classOf[b] = classOf[FOLD[b] & 0xff];
        }
        width = classes;
        // the trie of the literals, written into the transition table itself (a child's number, 0 for none)
        char[] table = new char[(bytesTotal + 1) * width];
        List<List<Integer>> own = new ArrayList<>(); // state -> signatures whose literal ends there
        own.add(null);
        for (int s = 0; s < literalBytes.size(); s++) {
            List<byte[]> literals = literalBytes.get(s);
            int newStates = literals.stream().mapToInt(l -> l.length).sum();
            if (literals.isEmpty() || own.size() + newStates > MAX_STATES) {
                if (s != renamed) {
                    alwaysList.add(s); // no literal, or a table past its states: tested on every line, still exact
                }
                continue;
            }
            for (byte[] lit : literals) {
                int state = 0;
                for (byte b : lit) {
                    int at = state * width + classOf[b & 0xff];
                    if (table[at] == 0) {
                        table[at] = (char) own.size();
                        own.add(null);
                    }
                    state = table[at];
                }
                if (own.get(state) == null) {
                    own.set(state, new ArrayList<>(1));
                }
                if (!own.get(state).contains(s)) {
                    own.get(state).add(s);
                }
            }
        }
        // breadth-first failure links, filling each missing transition from the failure state's row (a state's row is
        // complete before any deeper state reads it); a state outputs its own signatures and its failure state's
        int n = own.size();
        delta = Arrays.copyOf(table, n * width);
        outputs = new int[n][];
        int[] fail = new int[n];
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        for (int c = 0; c < width; c++) {
            if (delta[c] > 0) {
                queue[tail++] = delta[c];
            }
        }
        while (head < tail) {
            int state = queue[head++];
            outputs[state] = union(own.get(state), outputs[fail[state]]);
            int row = state * width;
            int failRow = fail[state] * width;
            for (int c = 0; c < width; c++) {
                int next = delta[row + c];
                if (next > 0) {
                    fail[next] = delta[failRow + c];
                    queue[tail++] = next;
                } else {
                    delta[row + c] = delta[failRow + c];
                }
            }
        }
        always = alwaysList.stream().mapToInt(Integer::intValue).toArray();
        regexes = new SignatureRegex[this.signatures.size()];
        for (int s = 0; s < regexes.length; s++) {
            Signature sig = this.signatures.get(s);
            regexes[s] = SignatureRegex.of(sig.pattern(), sig.regex());
        }
    }

    /** Signatures that no literal could be extracted from (tested on every line: keep this list short). */
    public List<Signature> unfiltered() {
        return Arrays.stream(always).mapToObj(signatures::get).toList();
    }

    /**
     * Scans {@code log}, reporting each signature at most once per line, in line order per signature.
     * Line indexes are 0-based. A line where a SLURM command prints under a renamed binary's name
     * ({@code sbatch.bin: error: ...}, {@link CommandName}) is read as the command's own; the line reported is the
     * log's as written, the message the one read.
     */
    public void scan(byte[] log, MatchSink sink) {
        byte[] text = log; // the text read: a copy once a renamed command's prefix is rewritten (CommandName)
        int len = text.length;
        Sample sample = Sample.of(text, len);
        int width = sample.terminalWidth(text);
        int words = sample.wordWrapWidth(text);
        char[] d = delta;
        int[] cls = classOf;
        int cols = this.width; // the table's row width (the scan's own width is the text's terminal)
        long[] lastLineTested = new long[signatures.size()];
        Arrays.fill(lastLineTested, -1);
        int[] testedUpTo = new int[signatures.size()]; // end of the last window a signature's regex saw
        // line bookkeeping for hits, advanced at each newline the automaton passes
        int lineStart = 0;
        int logicalStart = 0; // start of the message the current line continues (a wrapped line), else lineStart
        int physStart = 0;    // start of the line the automaton is in
        int joinedEnd = -1;   // end of the last line the current message wraps onto
        long lineIndex = 0;
        int state = 0;
        int alt = -1; // the state had the last wrapped break been a space a word wrapper took away, while it differs
        int[] atBreak = null; // literals that end on that space ("cancelled at "), reported with the next line's first byte
        int lineEnd = -1; // end of the current hit's line, found once per line
        int physHigh = 0; // bytes >= 0x80 in the line the automaton is in: none, and its columns are its bytes
        Map<Long, String> decoded = new HashMap<>(4);
        Map<String, LineVerdicts> verdicts = new HashMap<>();
        bytes:
        for (int i = 0; i < len; i++) {
            byte b = text[i];
            if (b == 0x1b) {
                i = skipEscape(text, i, len) - 1; // colour codes are invisible: the automaton reads through them
                continue;
            }
            if (b == '\\' && i + 1 < len && (text[i + 1] == '"' || text[i + 1] == '\'' || text[i + 1] == '/')) {
                continue; // a string's escape (a JSON record, a Python repr): read as the character it stands for
            }
            if (b < 0) {
                physHigh++;
            }
            if (b == '\r' && i + 1 < len && text[i + 1] == '\n'
                    && wraps(text, i + 1, physStart, len, width, words, physHigh == 0 ? i - physStart : -1)) {
                continue; // the CR of a wrapped CRLF line
            }
            if (b == '\n') {
                int end = i > physStart && text[i - 1] == '\r' ? i - 1 : i;
                boolean wrapped = wraps(text, i, physStart, len, width, words, physHigh == 0 ? end - physStart : -1);
                physStart = i + 1;
                physHigh = 0;
                lineIndex++;
                lineStart = i + 1;
                if (wrapped) {
                    alt = d[state * cols + cls[' ']];
                    atBreak = outputs[alt];
                    continue; // a message cut by a terminal's width goes on: so does the literal being read
                }
                logicalStart = i + 1;
                alt = -1;
                atBreak = null;
            }
            int c = cls[b & 0xff];
            state = d[state * cols + c];
            int[] hits = outputs[state];
            if (atBreak != null) {
                hits = hits == null ? atBreak : concat(hits, atBreak);
                atBreak = null;
            }
            if (alt >= 0) {
                alt = d[alt * cols + c];
                if (alt == state) {
                    alt = -1;
                } else if (outputs[alt] != null) {
                    hits = hits == null ? outputs[alt] : concat(hits, outputs[alt]);
                }
            }
            if (hits == null) {
                continue;
            }
            if (text[i] == '\n') {
                continue; // literals never span lines; a hit on the newline belongs to no line
            }
            if (lineEnd < i) {
                lineEnd = indexOf(text, (byte) '\n', i, len);
                joinedEnd = lineEnd;
                int from = lineStart;
                for (int n = 0; n < MAX_JOINED && joinedEnd < len && wraps(text, joinedEnd, from, len, width, words, -1); n++) {
                    from = joinedEnd + 1;
                    joinedEnd = indexOf(text, (byte) '\n', from, len);
                }
            }
            int joinFrom = Math.max(logicalStart, lineStart - 2 * WINDOW);
            boolean wrappedLine = (joinFrom < lineStart || joinedEnd > lineEnd) && joinedEnd - joinFrom <= 2 * WINDOW;
            for (int s : hits) {
                if (s == renamed) {
                    int colon = CommandName.renamedAt(text, i, lineStart, lineEnd);
                    if (colon >= 0) {
                        // read the line again as the command printed it under its own name (same length, same lines)
                        text = text == log ? log.clone() : text;
                        CommandName.rewrite(text, i, colon, lineStart);
                        decoded.clear();
                        state = 0;
                        alt = -1;
                        atBreak = null;
                        physHigh = 0;
                        i = lineStart - 1;
                        continue bytes;
                    }
                    continue;
                }
                if (lastLineTested[s] == lineIndex && i < testedUpTo[s]) {
                    continue; // this stretch of the line was already tested for this signature
                }
                lastLineTested[s] = lineIndex;
                boolean whole = lineEnd - lineStart <= 2 * WINDOW;
                testedUpTo[s] = whole ? lineEnd : Math.min(lineEnd, i + WINDOW);
                String window = window(text, lineStart, lineEnd, i, decoded, lineIndex);
                if (!wrappedLine && !sink.wants(signatures.get(s), window)) {
                    continue; // a match here would be dropped: the regex need not run
                }
                if (verdicts.size() > VERDICT_CACHE) {
                    verdicts.clear();
                }
                LineVerdicts v = verdicts.computeIfAbsent(window, w -> new LineVerdicts());
                String matched = v.matches(s, window) ? window : null;
                boolean spaced = false;
                if (matched == null && wrappedLine) {
                    // the line is part of a message a terminal wrapped: test the message as it was printed, cut
                    // inside a word (a terminal) or at a space the wrapper turned into the break (a word wrapper)
                    String joined = joined(text, joinFrom, joinedEnd, false, width);
                    boolean across = verdicts.computeIfAbsent(joined, w -> new LineVerdicts()).matches(s, joined);
                    if (!across) {
                        spaced = true;
                        joined = joined(text, joinFrom, joinedEnd, true, width);
                        across = verdicts.computeIfAbsent(joined, w -> new LineVerdicts()).matches(s, joined);
                    }
                    if (across && !anyLineMatches(s, text, joinFrom, joinedEnd, verdicts)) {
                        matched = joined; // only the message across the break matches: it was wrapped
                    }
                }
                if (matched != null) {
                    testedUpTo[s] = lineEnd; // report a signature once per line
                    // the whole message, for the benign words of a line a terminal cut or a wrapper broke, when
                    // the text shows that width: one line of a usual width before a new record is no cut to trust
                    String message = wrappedLine && matched == window && (width > 0 || words > 0)
                            ? joined(text, joinFrom, joinedEnd, false, width) : matched;
                    String line = matched;
                    if (text != log) { // the evidence quotes the log as written (sbatch.bin:, not the name read)
                        line = matched == window ? window(log, lineStart, lineEnd, i, new HashMap<>(1), lineIndex)
                                : joined(log, joinFrom, joinedEnd, spaced, width);
                    }
                    sink.match(signatures.get(s), lineIndex, line, message);
                }
            }
        }
        if (always.length > 0) {
            scanEveryLine(text, log, sink, lastLineTested);
        }
    }

    private void scanEveryLine(byte[] text, byte[] log, MatchSink sink, long[] lastLineTested) {
        int start = 0;
        long line = 0;
        while (start <= text.length) {
            int end = indexOf(text, (byte) '\n', start, text.length);
            if (end > start || end < text.length) {
                String s = decode(text, start, Math.min(end, start + 2 * WINDOW));
                LineText.Reading reading = new LineText.Reading(s);
                for (int a : always) {
                    if (lastLineTested[a] != line && reading.find(regexes[a])) {
                        String written = text == log ? s : decode(log, start, Math.min(end, start + 2 * WINDOW));
                        sink.match(signatures.get(a), line, written, s);
                    }
                }
            }
            if (end >= text.length) {
                break;
            }
            start = end + 1;
            line++;
        }
    }

    /** Logs repeat lines (progress, per-rank warnings): each distinct text is tested once per signature. */
    private static final int VERDICT_CACHE = 4096;

    /** Which signatures were tested on one line text, and which matched. */
    private final class LineVerdicts {
        private final java.util.BitSet tested = new java.util.BitSet();
        private final java.util.BitSet matched = new java.util.BitSet();
        private LineText.Reading reading; // the line's segments and peeled forms, shared by its signatures

        boolean matches(int s, String line) {
            if (!tested.get(s)) {
                tested.set(s);
                if (reading == null) {
                    reading = new LineText.Reading(line);
                }
                if (reading.find(regexes[s])) {
                    matched.set(s);
                }
            }
            return matched.get(s);
        }
    }

    private static String window(byte[] text, int lineStart, int lineEnd, int hit, Map<Long, String> cache, long lineIndex) {
        if (lineEnd - lineStart <= 2 * WINDOW) {
            String s = cache.get(lineIndex);
            if (s == null) {
                cache.clear();
                s = decode(text, lineStart, lineEnd);
                cache.put(lineIndex, s);
            }
            return s;
        }
        int from = Math.max(lineStart, hit - WINDOW);
        int to = Math.min(lineEnd, hit + WINDOW);
        return decode(text, from, to);
    }

    private static String decode(byte[] text, int from, int to) {
        int end = to > from && text[to - 1] == '\r' ? to - 1 : to;
        return new String(text, from, end - from, StandardCharsets.UTF_8);
    }

    /**
     * The offset after the ANSI escape sequence at {@code i} ({@code ESC [ params final} or {@code ESC x}); it never
     * passes a newline and reads at most 64 bytes, so the scan stays linear.
     */
    private static int skipEscape(byte[] a, int i, int len) {
        int j = i + 1;
        if (j >= len || a[j] == '\n') {
            return j;
        }
        if (a[j] != '[') {
            return j + 1;
        }
        j++;
        while (j < len && j - i < 64 && a[j] != '\n') {
            byte c = a[j++];
            if (c >= 0x40 && c <= 0x7e) {
                return j;
            }
        }
        return j;
    }

    /**
     * Whether one physical line between {@code from} and {@code to} matches signature {@code s} on its own: then a
     * match of the joined text is that line's (reported there), not a message that wrapping cut in two.
     */
    private boolean anyLineMatches(int s, byte[] text, int from, int to, Map<String, LineVerdicts> verdicts) {
        int start = from;
        while (start < to) {
            int end = indexOf(text, (byte) '\n', start, to);
            String line = decode(text, start, end);
            if (verdicts.computeIfAbsent(line, w -> new LineVerdicts()).matches(s, line)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /**
     * Whether the newline at {@code nl} ends a line that a terminal wrapped: a line of one of the {@link #WRAP_WIDTH
     * usual widths} or of the text's own {@code terminal} width, followed by a line that goes on. A terminal cuts a
     * message wherever the width falls, so the cut can fall on either side of a space; an indent of two or more
     * spaces or a tab starts a line of its own (a traceback's frames, a table's rows). In a text a word wrapper
     * broke at {@code words} columns ({@link #wordWrapWidth}), a line also wraps when the next line's first word would
     * not have fitted on it: the wrapper broke there, at a space it took away.
     */
    private static boolean wraps(byte[] a, int nl, int lineStart, int len, int terminal, int words, int knownColumns) {
        int end = nl > lineStart && a[nl - 1] == '\r' ? nl - 1 : nl;
        int bytes = end - lineStart;
        if (nl + 1 >= len || bytes == 0) {
            return false;
        }
        byte next = a[nl + 1];
        if (next == '\n' || next == '\r' || next == '\t') {
            return false;
        }
        // a line's columns are at most its bytes: a line narrower than every cut width (all are MIN_TERMINAL_WIDTH
        // or more) after which the next word would have fitted is not counted at all, and that is most lines
        int nextWord = words > 0 && next != ' ' && a[end - 1] != ' ' ? wordEnd(a, nl + 1, len, 4 * words) - nl - 1 : -1;
        if (bytes < MIN_TERMINAL_WIDTH && (nextWord < 0 || bytes + 1 + nextWord <= words)
                || startsAlike(a, lineStart, nl + 1, len)) {
            return false;
        }
        int width = knownColumns >= 0 ? knownColumns : columns(a, lineStart, end);
        if (!cutWidth(width, terminal)) {
            return nextWord >= 0 && width <= words && width + 1 + columns(a, nl + 1, nl + 1 + nextWord) > words;
        }
        return next != ' ' || nl + 2 < len && a[nl + 2] != ' ' && a[nl + 2] != '\t' && a[nl + 2] != '\n'
                && a[end - 1] != ' ';
    }

    /** Whether a line {@code width} columns wide is as wide as a terminal cuts at: a usual width or the text's own. */
    private static boolean cutWidth(int width, int terminal) {
        return width < WRAP_WIDTH.length && WRAP_WIDTH[width] || width == terminal;
    }

    /** Where the word that starts at {@code from} ends (a space or the line's end), looked for up to {@code cap} bytes. */
    private static int wordEnd(byte[] a, int from, int len, int cap) {
        int i = from;
        while (i < len && i - from <= cap && a[i] != ' ' && a[i] != '\n' && a[i] != '\r') {
            i++;
        }
        return i;
    }

    /**
     * The columns a terminal gives the bytes from {@code from} to {@code to}, as {@code wcwidth} counts them: one per
     * character (a UTF-8 continuation byte takes none), two for an East Asian wide one (CJK, kana, Hangul, full-width
     * forms). A terminal cuts and a wrapper breaks lines by columns, so a line with curly quotes or box drawing that
     * was cut at 80 columns is more than 80 bytes long.
     */
    static int columns(byte[] a, int from, int to) {
        int cols = 0;
        for (int i = from; i < to; i++) {
            int b = a[i] & 0xff;
            if (b < 0x80) {
                cols++;
            } else if (b >= 0xC0) {
                cols += charColumns(a, i, to);
            }
        }
        return cols;
    }

    /**
     * The columns of the UTF-8 character whose lead byte is at {@code i}: 0 for a combining mark (U+0300-U+036F), 2
     * for an East Asian wide character, else 1.
     */
    private static int charColumns(byte[] a, int i, int to) {
        int b = a[i] & 0xff;
        if (b < 0xE0) {
            return b == 0xCC || b == 0xCD && i + 1 < to && (a[i + 1] & 0xff) < 0xB0 ? 0 : 1;
        }
        if (b >= 0xF0) {
            return b == 0xF0 && i + 1 < to && (a[i + 1] & 0xff) >= 0xA0 ? 2 : 1; // U+20000-U+3FFFF: CJK extensions
        }
        if (i + 2 >= to) {
            return 1;
        }
        int cp = (b & 0x0F) << 12 | (a[i + 1] & 0x3F) << 6 | a[i + 2] & 0x3F;
        boolean wide = cp >= 0x1100 && cp <= 0x115F || cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F
                || cp >= 0xAC00 && cp <= 0xD7A3 || cp >= 0xF900 && cp <= 0xFAFF || cp >= 0xFE30 && cp <= 0xFE4F
                || cp >= 0xFF00 && cp <= 0xFF60 || cp >= 0xFFE0 && cp <= 0xFFE6;
        return wide ? 2 : 1;
    }

    /** Bytes two lines must start with alike to be two records of one logger (a timestamp, a host, a rank). */
    private static final int RECORD_PREFIX = 5;

    /**
     * Whether the lines at {@code line} and {@code next} start with the same {@link #RECORD_PREFIX} bytes: then the
     * next line is the logger's next record ({@code [rank3]:}, a timestamp, a host name), not the rest of this one,
     * however wide this one is; the piece a terminal cuts off starts mid-message.
     */
    private static boolean startsAlike(byte[] a, int line, int next, int len) {
        return next + RECORD_PREFIX <= len && Arrays.equals(a, line, line + RECORD_PREFIX, a, next, next + RECORD_PREFIX);
    }

    /** {@link Sample#terminalWidth} of the text. */
    static int terminalWidth(byte[] a, int len) {
        return Sample.of(a, len).terminalWidth(a);
    }

    /** {@link Sample#wordWrapWidth} of the text. */
    static int wordWrapWidth(byte[] a, int len) {
        return Sample.of(a, len).wordWrapWidth(a);
    }

    /**
     * The lines of a text's first {@link #WIDTH_SAMPLE} bytes that end there (the last may be cut by the sample, or
     * be the short end of a wrapped message), each with its start, its newline and its columns: read once, for both
     * widths a text can show.
     */
    private static final class Sample {
        private int[] starts = new int[64];
        private int[] newlines = new int[64];
        private int[] cols = new int[64];
        private int n;
        private int max;
        private int to;

        static Sample of(byte[] a, int len) {
            Sample s = new Sample();
            int to = Math.min(len, WIDTH_SAMPLE);
            s.to = to;
            for (int start = 0, nl; start < to && (nl = indexOf(a, (byte) '\n', start, to)) < to; start = nl + 1) {
                s.add(start, nl, columns(a, start, nl > start && a[nl - 1] == '\r' ? nl - 1 : nl));
            }
            return s;
        }

        private void add(int start, int nl, int columns) {
            if (n == starts.length) {
                starts = Arrays.copyOf(starts, 2 * n);
                newlines = Arrays.copyOf(newlines, 2 * n);
                cols = Arrays.copyOf(cols, 2 * n);
            }
            starts[n] = start;
            newlines[n] = nl;
            cols[n++] = columns;
            max = Math.max(max, columns);
        }

        private int end(byte[] a, int i) {
            int nl = newlines[i];
            return nl > starts[i] && a[nl - 1] == '\r' ? nl - 1 : nl;
        }

        /**
         * The width of the terminal a pasted text was wrapped at: the columns of its longest lines, when at least two
         * different lines reach it exactly (a terminal cuts every longer line at its width, so no line is longer and
         * the cut pieces are all that long). 0 when the text shows no such width, or when it is narrower than
         * {@link #MIN_TERMINAL_WIDTH} or wider than {@link #MAX_TERMINAL_WIDTH}.
         */
        int terminalWidth(byte[] a) {
            if (max < MIN_TERMINAL_WIDTH || max > MAX_TERMINAL_WIDTH) {
                return 0;
            }
            int first = -1;
            for (int i = 0; i < n; i++) {
                if (cols[i] != max) {
                    continue;
                }
                if (first < 0) {
                    first = i;
                } else if (!Arrays.equals(a, starts[first], end(a, first), a, starts[i], end(a, i))) {
                    return max;
                }
            }
            return 0;
        }

        /**
         * The width a word wrapper (a mail client, {@code textwrap}, {@code fmt}, Rich off a terminal) broke a text
         * at: the columns of its longest line, when at least two lines are full at it, that is when the next line's
         * first word would not have fitted after them, and that next line goes on the message (no indent, not the
         * logger's next record). A text that shows a terminal's width shows this one too, as two lines exactly that
         * wide are full: its long lines then also join a next line that starts with a word too long for them
         * (demanding two full lines shorter than the terminal's lost more wrapped dev cases than it spared terminal
         * ones). 0 when the text shows no such width, or when it is narrower than {@link #MIN_TERMINAL_WIDTH} or
         * wider than {@link #MAX_WORD_WRAP_WIDTH}.
         */
        int wordWrapWidth(byte[] a) {
            if (max < MIN_TERMINAL_WIDTH || max > MAX_WORD_WRAP_WIDTH) {
                return 0;
            }
            int full = 0;
            for (int i = 0; i < n; i++) {
                if (wraps(a, newlines[i], starts[i], to, 0, max, cols[i]) && ++full == 2) {
                    return max;
                }
            }
            return 0;
        }
    }

    /**
     * The text from {@code from} to {@code to} as it was printed: a break after a line of a terminal's width removed
     * (the cut fell inside the text), a break after a shorter line read as the space a word wrapper took away; with
     * {@code spaced}, every break read as that space (a mail client also breaks at 72 or 80).
     */
    private static String joined(byte[] text, int from, int to, boolean spaced, int terminal) {
        byte[] out = new byte[to - from]; // a break becomes at most the one space it stood for
        int n = 0;
        int lineStart = from;
        for (int i = from; i < to; i++) {
            byte c = text[i];
            if (c == '\r' && i + 1 < to && text[i + 1] == '\n') {
                continue;
            }
            if (c == '\n') {
                int w = columns(text, lineStart, i > lineStart && text[i - 1] == '\r' ? i - 1 : i);
                lineStart = i + 1;
                if (spaced || !cutWidth(w, terminal)) {
                    out[n++] = ' ';
                }
                continue;
            }
            out[n++] = c;
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    /** The signatures a state reports: its own, then those of its failure state not among them; null for none. */
    private static int[] union(List<Integer> own, int[] inherited) {
        if (own == null) {
            return inherited;
        }
        int[] out = new int[own.size() + (inherited == null ? 0 : inherited.length)];
        int n = 0;
        for (int s : own) {
            out[n++] = s;
        }
        if (inherited != null) {
            for (int s : inherited) {
                if (!own.contains(s)) {
                    out[n++] = s;
                }
            }
        }
        return Arrays.copyOf(out, n);
    }

    private static int[] concat(int[] a, int[] b) {
        int[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static int indexOf(byte[] a, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return to;
    }
}
