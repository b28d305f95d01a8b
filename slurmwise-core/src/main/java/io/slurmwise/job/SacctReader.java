package io.slurmwise.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Streams {@link JobRecord}s out of {@code sacct -P} output: a header line naming the fields, then one row per
 * job allocation followed by its step rows ({@code 123.batch}, {@code 123.extern}, {@code 123.0}), which are
 * folded into their job (MaxRSS lives only on step rows). Memory stays bounded: one job is held at a time. This is
 * the one sacct parser of slurmwise: the real and mock backends and {@code stats --input} all read through it.
 *
 * <pre>{@code
 * try (Stream<JobRecord> jobs = SacctReader.stream(new StringReader(sacctOutput))) {
 *     jobs.forEach(System.out::println);
 * }
 * }</pre>
 *
 * Fields are found by header name, so any subset and order works. The separator is the one {@link #separator}
 * finds: {@code '|'} (sacct's default), {@link #DELIMITER} (which the real backend asks for with
 * {@code --delimiter} so that no name or path can contain it) or whatever {@code --delimiter} an export was made
 * with. With {@code '|'}, a row with too many fields whose extra separators can only be inside free text (the job
 * name users choose, {@code sbatch -J "prep|v2"}, and a last SubmitLine column) is repaired when the repaired
 * row's State is a SLURM state. Other rows with the wrong number of fields are skipped and counted
 * ({@link #malformedRows()}). Columns the record has no place for can be kept per job ({@link #keep}).
 *
 * <p>Rows are split as UTF-8 bytes, and values that repeat across jobs (users, partitions, states, TRES, limits)
 * are decoded once per reader and shared, so a large export costs a few hundred bytes of garbage per row.
 */
public final class SacctReader implements Iterator<JobRecord>, AutoCloseable {

    /**
     * The field delimiter slurmwise passes to {@code sacct -P --delimiter}: the ASCII unit separator, which no
     * name or path holds, then '|' (an argument cannot end in a control character: the process library trims it).
     */
    public static final String DELIMITER = "\u001f|";

    /**
     * The longest row read (1 MiB; sacct's longest fields, paths and submit lines, are a few KiB): a longer line
     * is skipped as malformed without being held, so no input can make a reader hold more than this.
     */
    public static final int MAX_LINE_BYTES = 1 << 20;

    /** The fields slurmwise asks sacct for, in this order (StdOut/StdErr only where sacct has them, 23.02+). */
    public static final List<String> FIELDS = List.of("JobID", "JobName", "User", "Account", "Partition", "QOS",
            "State", "ExitCode", "DerivedExitCode", "Submit", "Start", "End", "Elapsed", "Timelimit", "ReqMem",
            "MaxRSS", "AllocCPUS", "AllocTRES", "ReqTRES", "NodeList", "TotalCPU", "ConsumedEnergyRaw", "WorkDir", "StdOut",
            "StdErr", "Reason");

    /**
     * The names and separator of an export's header; {@link #of} is how a header line is read.
     *
     * @param names     the field names as written
     * @param separator the field separator ({@link #separator})
     */
    public record Header(List<String> names, String separator) {
        public Header {
            names = List.copyOf(names);
        }

        /** Reads a header line with the one separator rule. */
        public static Header of(String line) {
            // a file saved by an editor or a spreadsheet may begin with a UTF-8 byte order mark: it is no part of JobID
            line = line.startsWith("\uFEFF") ? line.substring(1) : line;
            String sep = SacctReader.separator(line, true);
            return new Header(Arrays.asList(split(line, sep)), sep);
        }

        /** The header sacct would print for these fields with the given separator. */
        public static Header of(List<String> fields, String separator) {
            return new Header(fields, separator);
        }

        /** Whether a field is present (sacct's name, any case). */
        public boolean has(String name) {
            return names.stream().anyMatch(n -> n.strip().equalsIgnoreCase(name));
        }

        /** The header line as sacct would print it. */
        public String line() {
            return String.join(separator, names);
        }
    }

    private final Lines in;
    private final Map<String, Integer> column = new HashMap<>();
    private final int width;
    /** The separator as given; null when the first row decides (no header was read or given). */
    private String separator;
    private final Cols c;
    private final Decoded decoded = new Decoded();
    // one row's fields: byte offsets into rowData
    private final int[] fs;
    private final int[] fe;
    private byte[] rowData;
    private int[] keptColumns = new int[0];
    private String[] keptNames = new String[0];
    private Map<String, String> currentKept = Map.of();
    private Map<String, String> readyKept = Map.of();
    private Map<String, String> lastKept = Map.of();
    private JobRecord.Builder current;
    private byte[] currentKey = new byte[32];
    private int currentKeyLength = -1;
    private JobRecord ready;
    private boolean exhausted;
    private long malformed;
    private String firstMalformed;
    private byte[] sepBytes;

    private SacctReader(Lines in, Header header) {
        this.in = in;
        if (header == null) {
            width = 0;
            fs = new int[0];
            fe = new int[0];
            c = new Cols(column);
            exhausted = true;
            return;
        }
        List<String> names = header.names();
        for (int i = 0; i < names.size(); i++) {
            column.put(names.get(i).strip().toLowerCase(Locale.ROOT), i);
        }
        width = names.size();
        fs = new int[width];
        fe = new int[width];
        this.separator = header.separator();
        this.sepBytes = header.separator() == null ? null : header.separator().getBytes(StandardCharsets.UTF_8);
        if (!column.containsKey("jobid")) {
            String line = String.join(header.separator() == null ? "|" : header.separator(), names);
            throw new IllegalArgumentException("sacct output has no JobID column; its header was: `"
                    + Excerpt.of(line.replace(DELIMITER, "|"), 120)
                    + "` (expected the output of sacct -P --format=JobID,...)");
        }
        c = new Cols(column);
    }

    private static SacctReader fromLines(Lines lines) {
        String first = lines.nextLineAsString();
        if (first != null && lines.overlong()) {
            throw new IllegalArgumentException("sacct output has no header: its first line is longer than "
                    + (MAX_LINE_BYTES >> 20) + " MiB (expected the output of sacct -P --format=JobID,...)");
        }
        return new SacctReader(lines, first == null ? null : Header.of(first));
    }

    /** Reads the header from the first line. */
    public static SacctReader open(Reader reader) {
        return fromLines(Lines.of(reader));
    }

    /** Reads UTF-8 bytes (a file, a decompressing stream); the header is the first line. */
    public static SacctReader open(InputStream bytes) {
        return fromLines(Lines.of(bytes));
    }

    /** Reads rows of an export whose header was read elsewhere (a chunk of a large file read in parallel). */
    public static SacctReader open(InputStream rows, Header header) {
        return new SacctReader(Lines.of(rows), header);
    }

    /**
     * Reads rows of an export already in memory ({@code bytes[from, to)}), in place: no copy of the bytes. The
     * array must not change while the reader is used.
     */
    public static SacctReader open(byte[] bytes, int from, int to, Header header) {
        java.util.Objects.checkFromToIndex(from, to, bytes.length);
        return new SacctReader(new ArrayLines(bytes, from, to), header);
    }

    /**
     * For {@code sacct -P -n} output, whose header the caller knows (the field list it asked for); the separator is
     * taken from the first row.
     */
    public static SacctReader open(Reader reader, List<String> fields) {
        return new SacctReader(Lines.of(reader), new Header(fields, null));
    }

    public static Stream<JobRecord> stream(Reader reader) {
        return toStream(open(reader));
    }

    public static Stream<JobRecord> toStream(SacctReader r) {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(r, Spliterator.ORDERED | Spliterator.NONNULL),
                false).onClose(r::close);
    }

    /**
     * The one separator rule. {@link #DELIMITER} when the line has it; in a header, what follows the first field
     * name (sacct's names are letters and digits: {@code JobID,State} -> {@code ","}); in a row without a header,
     * {@code '|'}.
     */
    public static String separator(String line, boolean header) {
        if (line.contains(DELIMITER)) {
            return DELIMITER;
        }
        if (!header) {
            return "|";
        }
        int i = 0;
        while (i < line.length() && Character.isLetterOrDigit(line.charAt(i))) {
            i++;
        }
        int j = i;
        while (j < line.length() && !Character.isLetterOrDigit(line.charAt(j))) {
            j++;
        }
        return i == j || j == line.length() ? "|" : line.substring(i, j);
    }

    /**
     * Also keeps these columns of each job's allocation row (e.g. JobIDRaw, SubmitLine), read after
     * {@link #next()} from {@link #kept()}; names are sacct's, in any case. Call before reading.
     */
    public SacctReader keep(String... names) {
        int[] idx = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            idx[i] = column.getOrDefault(names[i].toLowerCase(Locale.ROOT), -1);
        }
        keptColumns = idx;
        keptNames = names.clone();
        return this;
    }

    /** The kept columns of the job {@link #next()} returned last, by the names given to {@link #keep}. */
    public Map<String, String> kept() {
        return lastKept;
    }

    /** Whether the header has this column (sacct's name, any case). */
    public boolean hasColumn(String name) {
        return column.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /**
     * Rows skipped because they could not be read: their field count did not match the header, their JobID was no
     * job id, or they were longer than {@link #MAX_LINE_BYTES}.
     */
    public long malformedRows() {
        return malformed;
    }

    /**
     * The first skipped row, for messages: its line number and a printable excerpt ({@link Excerpt}), e.g.
     * {@code line 17: `4711|train|alice|proj`}; null when none was skipped.
     */
    public String firstMalformedRow() {
        return firstMalformed;
    }

    @Override
    public boolean hasNext() {
        while (ready == null && !exhausted) {
            advance();
        }
        return ready != null;
    }

    @Override
    public JobRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        JobRecord r = ready;
        ready = null;
        lastKept = readyKept;
        return r;
    }

    private void advance() {
        if (!in.next()) {
            exhausted = true;
            flush();
            return;
        }
        byte[] b = in.buf();
        int start = in.start();
        int end = in.end();
        if (in.overlong()) {
            skip("a row longer than " + (MAX_LINE_BYTES >> 20) + " MiB");
            return;
        }
        if (isBlank(b, start, end)) {
            return;
        }
        if (sepBytes == null) {
            separator = separator(new String(b, start, end - start, StandardCharsets.UTF_8), false);
            sepBytes = separator.getBytes(StandardCharsets.UTF_8);
        }
        rowData = b;
        int n = splitInto(b, start, end);
        if (n != width) {
            if (!(n > width && separator.equals("|") && repairFreeText(b, start, end))) {
                skip(b, start, end);
                return;
            }
        }
        row();
    }

    /** Splits into fs/fe; returns the number of fields found (more than the width: stops counting offsets). */
    private int splitInto(byte[] b, int start, int end) {
        byte[] s = sepBytes;
        byte first = s[0];
        int n = 0;
        int from = start;
        int i = start;
        int last = end - s.length;
        while (i <= last) {
            if (b[i] == first && (s.length == 1 || matches(b, i, s))) {
                if (n < width) {
                    fs[n] = from;
                    fe[n] = i;
                }
                n++;
                i += s.length;
                from = i;
            } else {
                i++;
            }
        }
        if (n < width) {
            fs[n] = from;
            fe[n] = end;
        }
        return n + 1;
    }

    private static boolean matches(byte[] b, int i, byte[] s) {
        for (int k = 1; k < s.length; k++) {
            if (b[i + k] != s[k]) {
                return false;
            }
        }
        return true;
    }

    private static boolean isBlank(byte[] b, int start, int end) {
        for (int i = start; i < end; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }

    private void row() {
        int idCol = c.jobid;
        // a step row of the job at hand: fold it without decoding its id
        int dot = indexOf(rowData, fs[idCol], fe[idCol], (byte) '.');
        if (dot >= 0 && current != null && equalsKey(rowData, fs[idCol], dot)) {
            foldStep();
            return;
        }
        JobId id = jobId(rowData, fs[idCol], fe[idCol]);
        if (id == null) {
            skip(rowData, in.start(), in.end());
            return;
        }
        if (id.isStep()) {
            return; // a step whose job is not the one at hand
        }
        flush();
        current = parseAllocation(id);
        int len = fe[idCol] - fs[idCol];
        if (currentKey.length < len) {
            currentKey = new byte[len * 2];
        }
        System.arraycopy(rowData, fs[idCol], currentKey, 0, len);
        currentKeyLength = len;
        if (keptColumns.length > 0) {
            Map<String, String> k = new HashMap<>();
            for (int i = 0; i < keptColumns.length; i++) {
                if (keptColumns[i] >= 0) {
                    k.put(keptNames[i], text(keptColumns[i]).strip());
                }
            }
            currentKept = k;
        }
    }

    private void skip(byte[] b, int start, int end) {
        if (firstMalformed == null) {
            int shown = Math.min(end - start, 512);
            String row = new String(b, start, shown, StandardCharsets.UTF_8).replace(DELIMITER, "|");
            skip("`" + Excerpt.of(row, 120) + "`");
        } else {
            malformed++;
        }
    }

    private void skip(String what) {
        malformed++;
        if (firstMalformed == null) {
            firstMalformed = "line " + in.lineNumber() + ": " + what;
        }
    }

    private boolean equalsKey(byte[] b, int from, int to) {
        return to - from == currentKeyLength && Arrays.equals(b, from, to, currentKey, 0, currentKeyLength);
    }

    private static int indexOf(byte[] b, int from, int to, byte x) {
        for (int i = from; i < to; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }

    /** Splits a row at every occurrence of a literal delimiter, keeping empty fields (as sacct prints them). */
    public static String[] split(String line, String delimiter) {
        int n = 1;
        for (int i = line.indexOf(delimiter); i >= 0; i = line.indexOf(delimiter, i + delimiter.length())) {
            n++;
        }
        String[] out = new String[n];
        int start = 0;
        for (int k = 0; k < n - 1; k++) {
            int end = line.indexOf(delimiter, start);
            out[k] = line.substring(start, end);
            start = end + delimiter.length();
        }
        out[n - 1] = line.substring(start);
        return out;
    }

    /**
     * Joins the surplus fields of a '|'-separated row back into its free text: the JobName, and SubmitLine when
     * it is the last column. Tries the surplus in SubmitLine first, then shifted into JobName one at a time, and
     * keeps the first split whose State is a SLURM state (then fs/fe hold it); false when none is (then another
     * column held the '|').
     */
    private boolean repairFreeText(byte[] b, int start, int end) {
        Integer name = column.get("jobname");
        Integer state = column.get("state");
        if (state == null) {
            return false;
        }
        // every separator position of the row
        List<int[]> fields = new ArrayList<>();
        int from = start;
        for (int i = start; i < end; i++) {
            if (b[i] == '|') {
                fields.add(new int[] {from, i});
                from = i + 1;
            }
        }
        fields.add(new int[] {from, end});
        Integer submit = column.get("submitline");
        boolean freeLast = submit != null && submit == width - 1;
        int extra = fields.size() - width;
        for (int inName = freeLast ? 0 : extra; inName <= extra; inName++) {
            if (inName > 0 && name == null) {
                break;
            }
            int f = 0;
            for (int col = 0; col < width; col++) {
                int take = 1 + (name != null && col == name ? inName : 0) + (freeLast && col == width - 1 ? extra - inName : 0);
                fs[col] = fields.get(f)[0];
                fe[col] = fields.get(f + take - 1)[1];
                f += take;
            }
            if (JobState.parse(text(state)) != JobState.UNKNOWN) {
                return true;
            }
        }
        return false;
    }

    private void flush() {
        if (current != null) {
            ready = current.build();
            readyKept = currentKept;
            currentKept = Map.of();
            current = null;
            currentKeyLength = -1;
        }
    }

    private void foldStep() {
        DataSize rss = size(c.maxrss);
        if (rss != null && (current.maxRss() == null || rss.compareTo(current.maxRss()) > 0)) {
            current.maxRss(rss);
        }
        // the first step that failed: a job whose batch script went on and exited 0 is COMPLETED while a step of it
        // ran out of memory (the real lab's 198.0), and only the step row says so
        if (c.state >= 0 && current.failedStep() == null) {
            JobStatus st = decoded.get(Decoded.STATUS, rowData, fs, fe, c.state, JobStatus::parse);
            if (Outcome.of(st.state()) == Outcome.FAILED) {
                current.failedStep(new FailedStep(text(c.jobid).strip(), st,
                        decoded.get(Decoded.EXIT, rowData, fs, fe, c.exitcode, t -> ExitCode.tryParse(t).orElse(null))));
            }
        }
    }

    private JobRecord.Builder parseAllocation(JobId id) {
        JobStatus status = decoded.get(Decoded.STATUS, rowData, fs, fe, c.state, JobStatus::parse);
        String reason = shared(c.reason);
        JobRecord.Builder b = JobRecord.builder(id)
                .name(c.jobname < 0 ? "" : decoded.get(Decoded.RAW, rowData, fs, fe, c.jobname, Function.identity()))
                .user(shared(c.user))
                .account(shared(c.account))
                .partition(shared(c.partition))
                .qos(shared(c.qos))
                .status(status)
                .exitCode(decoded.get(Decoded.EXIT, rowData, fs, fe, c.exitcode, t -> ExitCode.tryParse(t).orElse(null)))
                .submit(timestamp(c.submit))
                .start(timestamp(c.start))
                .end(timestamp(c.end))
                .elapsed(duration(c.elapsed))
                .timeLimit(decoded.get(Decoded.LIMIT, rowData, fs, fe, c.timelimit, TimeLimit::parse))
                .reqMem(decoded.get(Decoded.REQMEM, rowData, fs, fe, c.reqmem, t -> MemoryRequest.tryParse(t).orElse(null)))
                .maxRss(size(c.maxrss))
                .allocCpus(integer(c.alloccpus))
                .allocTres(decoded.get(Decoded.TRES, rowData, fs, fe, c.alloctres, Tres::parse))
                .reqTres(c.reqtres < 0 ? null : decoded.get(Decoded.TRES, rowData, fs, fe, c.reqtres, Tres::parse))
                .allocNodes(integer(c.nnodes))
                .nodeList(shared(c.nodelist))
                .totalCpu(duration(c.totalcpu))
                .consumedEnergyJoules(energy(c.consumedenergyraw))
                .workDir(shared(c.workdir))
                .stdoutPath(blankToNull(text(c.stdout)))
                .stderrPath(blankToNull(text(c.stderr)))
                .cluster(shared(c.cluster));
        // a pending job's reason, and what a job cancelled before it started waited on then (slurmctld cancels a job
        // whose dependency can never be satisfied, Reason=Dependency, naming no canceller)
        if ((status.state() == JobState.PENDING || (status.state() == JobState.CANCELLED && c.start >= 0
                && timestamp(c.start) == null)) && reason != null && !reason.equals("None")) {
            b.pendingReason(reason);
        }
        return b;
    }

    /** The field as text ("" when the column is absent). */
    private String text(int col) {
        return col < 0 ? "" : new String(rowData, fs[col], fe[col] - fs[col], StandardCharsets.UTF_8);
    }

    /** A stripped, non-blank value that repeats across jobs, decoded once per reader; null when blank. */
    private String shared(int col) {
        if (col < 0) {
            return null;
        }
        return decoded.get(Decoded.SHARED, rowData, fs, fe, col, SacctReader::blankToNull);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private int integer(int col) {
        if (col < 0) {
            return 0;
        }
        long v = digits(rowData, fs[col], fe[col]);
        if (v >= 0 && v <= Integer.MAX_VALUE) {
            return (int) v;
        }
        // anything else is unknown (0): NO_VAL or INFINITE (4294967294, -2, ...), a negative count, no number
        String s = text(col);
        try {
            return s.isBlank() ? 0 : Math.max(0, Integer.parseInt(s.strip()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** sacct prints 0 when no energy plugin measured anything: that is unknown, not zero. */
    private Long energy(int col) {
        if (col < 0) {
            return null;
        }
        long v = digits(rowData, fs[col], fe[col]);
        if (v == -2) {
            return null; // blank
        }
        if (v < 0) {
            String s = text(col).strip();
            try {
                v = Long.parseLong(s);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return v > 0 && !NoVal.is(v) ? v : null; // NO_VAL or INFINITE: nothing measured
    }

    /** The value of 1..18 ASCII digits; -2 for an empty field, -1 for anything else. */
    private static long digits(byte[] b, int from, int to) {
        if (from == to) {
            return -2;
        }
        if (to - from > 18) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private int twoDigits(int i) {
        int a = rowData[i] - '0';
        int b = rowData[i + 1] - '0';
        return a < 0 || a > 9 || b < 0 || b > 9 ? -1 : a * 10 + b;
    }

    /** {@code 2026-11-12T03:14:07} decoded from the bytes (the day shared); other forms as SlurmTime reads them. */
    private LocalDateTime timestamp(int col) {
        if (col < 0) {
            return null;
        }
        int s = fs[col];
        if (fe[col] - s == 19 && rowData[s + 4] == '-' && rowData[s + 7] == '-' && rowData[s + 10] == 'T'
                && rowData[s + 13] == ':' && rowData[s + 16] == ':') {
            int y1 = twoDigits(s);
            int y2 = twoDigits(s + 2);
            int mo = twoDigits(s + 5);
            int d = twoDigits(s + 8);
            int h = twoDigits(s + 11);
            int mi = twoDigits(s + 14);
            int se = twoDigits(s + 17);
            if (y1 >= 0 && y2 >= 0 && mo >= 0 && d >= 0 && h >= 0 && mi >= 0 && se >= 0) {
                try {
                    return LocalDateTime.of(decoded.day(y1 * 100 + y2, mo, d), LocalTime.of(h, mi, se));
                } catch (DateTimeException e) {
                    return null;
                }
            }
        }
        if (fe[col] == s) {
            return null;
        }
        return SlurmTime.parseTimestamp(text(col)).orElse(null);
    }

    /** {@code [D-]HH:MM:SS} and {@code MM:SS.mmm} decoded from the bytes; other forms as SlurmTime reads them. */
    private Duration duration(int col) {
        if (col < 0 || fe[col] == fs[col]) {
            return null;
        }
        int s = fs[col];
        int e = fe[col];
        long days = 0;
        int dash = indexOf(rowData, s, e, (byte) '-');
        if (dash > s && dash - s <= 6) {
            days = digits(rowData, s, dash);
            s = dash + 1;
        }
        if (days >= 0) {
            if (e - s == 8 && rowData[s + 2] == ':' && rowData[s + 5] == ':') { // HH:MM:SS
                int h = twoDigits(s);
                int m = twoDigits(s + 3);
                int sec = twoDigits(s + 6);
                if (h >= 0 && m >= 0 && sec >= 0) {
                    return Duration.ofSeconds(days * 86_400 + h * 3600L + m * 60L + sec);
                }
            } else if (dash < 0 && e - s == 9 && rowData[s + 2] == ':' && rowData[s + 5] == '.') { // MM:SS.mmm
                int m = twoDigits(s);
                int sec = twoDigits(s + 3);
                long ms = digits(rowData, s + 6, s + 9);
                if (m >= 0 && sec >= 0 && ms >= 0) {
                    return Duration.ofMillis(m * 60_000L + sec * 1000L + ms);
                }
            }
        }
        return SlurmTime.parseDuration(text(col)).orElse(null);
    }

    /** A size in KiB unless it says otherwise ({@code 2045K}, {@code 3G}); exact integers from the bytes. */
    private DataSize size(int col) {
        if (col < 0 || fe[col] == fs[col]) {
            return null;
        }
        int s = fs[col];
        int e = fe[col];
        long unit;
        switch (rowData[e - 1]) {
            case 'K', 'k' -> unit = DataSize.KIB;
            case 'M', 'm' -> unit = DataSize.MIB;
            case 'G', 'g' -> unit = DataSize.GIB;
            case 'T', 't' -> unit = DataSize.TIB;
            default -> unit = 0;
        }
        long v = digits(rowData, s, unit == 0 ? e : e - 1);
        long scale = unit == 0 ? DataSize.KIB : unit;
        if (v >= 0 && v < (1L << 52) / scale) { // exact as a double too, as DataSize.tryParse computes it
            return new DataSize(v * scale);
        }
        return DataSize.tryParse(text(col), DataSize.KIB).orElse(null);
    }

    /** Plain ids ({@code 1001}) and array tasks ({@code 4242_3}) from the bytes; others as JobId parses them. */
    private static JobId jobId(byte[] b, int from, int to) {
        int us = indexOf(b, from, to, (byte) '_');
        long id = digits(b, from, us < 0 ? to : us);
        if (id > 0 && id <= 9_999_999_999L) {
            if (us < 0) {
                return new JobId(id, null, null, null, null);
            }
            long task = digits(b, us + 1, to);
            if (task >= 0 && to - us - 1 <= 10) {
                return new JobId(id, task, null, null, null);
            }
        }
        return JobId.tryParse(new String(b, from, to - from, StandardCharsets.UTF_8)).orElse(null);
    }

    @Override
    public void close() {
        in.close();
    }

    /** Column indexes of the fields the record reads; -1 when the export does not have one. */
    private static final class Cols {
        final int jobid;
        final int jobname;
        final int user;
        final int account;
        final int partition;
        final int qos;
        final int state;
        final int exitcode;
        final int submit;
        final int start;
        final int end;
        final int elapsed;
        final int timelimit;
        final int reqmem;
        final int maxrss;
        final int alloccpus;
        final int alloctres;
        final int reqtres;
        final int nnodes;
        final int nodelist;
        final int totalcpu;
        final int consumedenergyraw;
        final int workdir;
        final int stdout;
        final int stderr;
        final int reason;
        final int cluster;

        Cols(Map<String, Integer> column) {
            Function<String, Integer> at = n -> column.getOrDefault(n, -1);
            jobid = at.apply("jobid");
            jobname = at.apply("jobname");
            user = at.apply("user");
            account = at.apply("account");
            partition = at.apply("partition");
            qos = at.apply("qos");
            state = at.apply("state");
            exitcode = at.apply("exitcode");
            submit = at.apply("submit");
            start = at.apply("start");
            end = at.apply("end");
            elapsed = at.apply("elapsed");
            timelimit = at.apply("timelimit");
            reqmem = at.apply("reqmem");
            maxrss = at.apply("maxrss");
            // sacct's NCPUS is AllocCPUS by another name ("Equivalent to NCPUS", man sacct)
            alloccpus = at.apply("alloccpus") >= 0 ? at.apply("alloccpus") : at.apply("ncpus");
            alloctres = at.apply("alloctres");
            reqtres = at.apply("reqtres");
            nnodes = at.apply("nnodes");
            nodelist = at.apply("nodelist");
            totalcpu = at.apply("totalcpu");
            consumedenergyraw = at.apply("consumedenergyraw");
            workdir = at.apply("workdir");
            stdout = at.apply("stdout");
            stderr = at.apply("stderr");
            reason = at.apply("reason");
            cluster = at.apply("cluster");
        }
    }

    /**
     * Values decoded from field bytes, kept by (kind, bytes) so a value seen before costs no allocation. Bounded:
     * a full table is cleared, so an export of unique values (job names, node lists) only loses the sharing.
     */
    private static final class Decoded {
        static final int RAW = 0;
        static final int SHARED = 1;
        static final int STATUS = 2;
        static final int EXIT = 3;
        static final int LIMIT = 4;
        static final int REQMEM = 5;
        static final int TRES = 6;
        private static final int SIZE = 1 << 13;
        private static final int MAX_KEY = 256;

        private final byte[][] keys = new byte[SIZE][];
        private final int[] kinds = new int[SIZE];
        private final Object[] values = new Object[SIZE];
        private int used;
        private LocalDate lastDay;
        private int lastDayKey = -1;

        @SuppressWarnings("unchecked")
        <T> T get(int kind, byte[] b, int[] fs, int[] fe, int col, Function<String, T> decode) {
            int from = col < 0 ? 0 : fs[col];
            int to = col < 0 ? 0 : fe[col];
            if (to - from > MAX_KEY) {
                return decode.apply(new String(b, from, to - from, StandardCharsets.UTF_8));
            }
            int h = kind * 31;
            for (int i = from; i < to; i++) {
                h = h * 31 + b[i];
            }
            h ^= h >>> 16;
            int slot = h & (SIZE - 1);
            while (true) {
                byte[] k = keys[slot];
                if (k == null) {
                    break;
                }
                if (kinds[slot] == kind && Arrays.equals(k, 0, k.length, b, from, to)) {
                    return (T) values[slot];
                }
                slot = (slot + 1) & (SIZE - 1);
            }
            T v = decode.apply(new String(b, from, to - from, StandardCharsets.UTF_8));
            if (used >= SIZE * 3 / 4) {
                Arrays.fill(keys, null);
                Arrays.fill(values, null);
                used = 0;
                slot = h & (SIZE - 1);
            }
            keys[slot] = Arrays.copyOfRange(b, from, to);
            kinds[slot] = kind;
            values[slot] = v;
            used++;
            return v;
        }

        LocalDate day(int year, int month, int day) {
            int key = (year * 13 + month) * 32 + day;
            if (key != lastDayKey) {
                lastDay = LocalDate.of(year, month, day);
                lastDayKey = key;
            }
            return lastDay;
        }
    }

    /**
     * Lines as byte ranges of a reused buffer: no String per row. A line longer than {@link #MAX_LINE_BYTES} is
     * dropped as it is read and returned empty with {@link #overlong()} set.
     */
    private abstract static class Lines {
        /** The line {@link #next()} returned is {@code buf[start, end)}. */
        byte[] buf;
        int start;
        int end;
        boolean overlong;
        long lines;

        abstract boolean next();

        abstract void close();

        /** Whether the line {@link #next()} returned was too long (and is given empty). */
        final boolean overlong() {
            return overlong;
        }

        /** The 1-based number of the line {@link #next()} returned. */
        final long lineNumber() {
            return lines;
        }

        final byte[] buf() {
            return buf;
        }

        final int start() {
            return start;
        }

        final int end() {
            return end;
        }

        String nextLineAsString() {
            if (!next()) {
                return null;
            }
            int e = end();
            return new String(buf(), start(), e - start(), StandardCharsets.UTF_8);
        }

        static Lines of(InputStream in) {
            return new ByteLines(in);
        }

        static Lines of(Reader r) {
            return new ByteLines(new ReaderBytes(r));
        }
    }

    private static final class ByteLines extends Lines {
        private final InputStream in;
        private int pos;
        private int limit;
        private boolean eof;
        private boolean skipping;

        ByteLines(InputStream in) {
            this.in = in;
            this.buf = new byte[1 << 16];
        }

        @Override
        boolean next() {
            overlong = false;
            int scanFrom = pos;
            while (true) {
                for (int i = scanFrom; i < limit; i++) {
                    if (buf[i] == '\n') {
                        lines++;
                        if (skipping) {
                            return overlongLine(i + 1);
                        }
                        start = pos;
                        end = i > pos && buf[i - 1] == '\r' ? i - 1 : i;
                        pos = i + 1;
                        return true;
                    }
                }
                if (eof) {
                    if (skipping) {
                        lines++;
                        return overlongLine(limit);
                    }
                    if (pos < limit) {
                        lines++;
                        start = pos;
                        end = buf[limit - 1] == '\r' ? limit - 1 : limit;
                        pos = limit;
                        return true;
                    }
                    return false;
                }
                if (skipping || limit - pos > MAX_LINE_BYTES) {
                    skipping = true;
                    pos = limit; // what was read of an overlong line is dropped, never held
                }
                int scanned = limit - pos;
                fill();
                scanFrom = pos + scanned;
            }
        }

        private boolean overlongLine(int next) {
            skipping = false;
            overlong = true;
            start = next;
            end = next;
            pos = next;
            return true;
        }

        private void fill() {
            if (pos > 0) {
                System.arraycopy(buf, pos, buf, 0, limit - pos);
                limit -= pos;
                pos = 0;
            }
            if (limit == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            try {
                int n = in.read(buf, limit, buf.length - limit);
                if (n < 0) {
                    eof = true;
                } else {
                    limit += n;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        void close() {
            try {
                in.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Lines of bytes already in memory, as ranges of that array (same contract as {@link ByteLines}). */
    private static final class ArrayLines extends Lines {
        private final int limit;
        private int pos;

        ArrayLines(byte[] buf, int from, int to) {
            this.buf = buf;
            this.pos = from;
            this.limit = to;
        }

        @Override
        boolean next() {
            if (pos >= limit) {
                return false;
            }
            int nl = limit;
            for (int i = pos; i < limit; i++) {
                if (buf[i] == '\n') {
                    nl = i;
                    break;
                }
            }
            lines++;
            overlong = nl - pos > MAX_LINE_BYTES;
            if (overlong) {
                start = nl;
                end = nl;
            } else {
                start = pos;
                end = nl > pos && buf[nl - 1] == '\r' ? nl - 1 : nl;
            }
            pos = nl + 1;
            return true;
        }

        @Override
        void close() {
        }
    }

    /** A Reader's characters as UTF-8 bytes, a block at a time, through reused buffers. */
    private static final class ReaderBytes extends InputStream {
        private final Reader reader;
        private final java.nio.charset.CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE);
        private final java.nio.CharBuffer chars = java.nio.CharBuffer.allocate(8192);
        private final java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(8192 * 3);
        private boolean eof;

        ReaderBytes(Reader reader) {
            this.reader = reader;
            bytes.flip();
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            while (!bytes.hasRemaining()) {
                // chars is in write mode here: its position is the number of characters not encoded yet
                if (eof && chars.position() == 0) {
                    return -1;
                }
                if (!eof && reader.read(chars) < 0) {
                    eof = true;
                }
                chars.flip();
                bytes.clear();
                encoder.encode(chars, bytes, eof);
                if (eof) {
                    encoder.flush(bytes);
                    chars.position(chars.limit()); // with the end of input everything was encoded (or replaced)
                }
                bytes.flip();
                chars.compact(); // keeps a high surrogate whose pair is still to come
            }
            int k = Math.min(len, bytes.remaining());
            bytes.get(b, off, k);
            return k;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
