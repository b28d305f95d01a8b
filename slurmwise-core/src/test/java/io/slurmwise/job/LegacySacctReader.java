package io.slurmwise.job;

// The string-splitting reader slurmwise used before SacctReader read bytes: the oracle the new one is held to.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Streams {@link JobRecord}s out of {@code sacct -P} output: a header line naming the fields, then one row per
 * job allocation followed by its step rows ({@code 123.batch}, {@code 123.extern}, {@code 123.0}), which are
 * folded into their job (MaxRSS lives only on step rows). Memory stays bounded: one job is held at a time.
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
 */
final class LegacySacctReader implements Iterator<JobRecord>, AutoCloseable {

    /**
     * The field delimiter slurmwise passes to {@code sacct -P --delimiter}: the ASCII unit separator, which no
     * name or path holds, then '|' (an argument cannot end in a control character: the process library trims it).
     */
    public static final String DELIMITER = "\u001f|";

    /** The fields slurmwise asks sacct for, in this order (StdOut/StdErr only where sacct has them, 23.02+). */
    public static final List<String> FIELDS = List.of("JobID", "JobName", "User", "Account", "Partition", "QOS",
            "State", "ExitCode", "DerivedExitCode", "Submit", "Start", "End", "Elapsed", "Timelimit", "ReqMem",
            "MaxRSS", "AllocCPUS", "AllocTRES", "ReqTRES", "NodeList", "TotalCPU", "ConsumedEnergyRaw", "WorkDir",
            "StdOut", "StdErr", "Reason");

    private final BufferedReader in;
    private final Map<String, Integer> column = new HashMap<>();
    private int[] keptColumns = new int[0];
    private String[] keptNames = new String[0];
    private Map<String, String> currentKept = Map.of();
    private Map<String, String> readyKept = Map.of();
    private Map<String, String> lastKept = Map.of();
    private final int width;
    /** The header as read from the input; null when the caller named the fields. */
    private final String readHeader;
    /** {@code "|"} or {@link #DELIMITER}; null until the header or the first row shows which. */
    private String separator;
    private JobRecord.Builder current;
    private String currentKey;
    private JobRecord ready;
    private boolean exhausted;
    private long malformed;

    private LegacySacctReader(Reader reader, String headerLine) {
        this.in = reader instanceof BufferedReader b ? b : new BufferedReader(reader, 1 << 16);
        String header = headerLine;
        if (header == null) {
            try {
                header = in.readLine();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        this.readHeader = headerLine == null ? header : null;
        if (header == null) {
            width = 0;
            exhausted = true;
            return;
        }
        String[] names = split(header, headerLine == null ? separator(header, true) : "|");
        for (int i = 0; i < names.length; i++) {
            column.put(names[i].strip().toLowerCase(Locale.ROOT), i);
        }
        width = names.length;
        if (!column.containsKey("jobid")) {
            throw new IllegalArgumentException("sacct output has no JobID column; its header was: "
                    + (header.length() > 200 ? header.substring(0, 200) + "..." : header)
                    + " (expected the output of sacct -P --format=JobID,...)");
        }
    }

    /** Reads the header from the first line. */
    static LegacySacctReader open(Reader reader) {
        return new LegacySacctReader(reader, null);
    }

    /**
     * For {@code sacct -P -n} output, whose header the caller knows (the field list it asked for); the separator is
     * taken from the first row.
     */
    static LegacySacctReader open(Reader reader, List<String> fields) {
        return new LegacySacctReader(reader, String.join("|", fields));
    }

    public static Stream<JobRecord> stream(Reader reader) {
        return toStream(open(reader));
    }

    public static Stream<JobRecord> toStream(LegacySacctReader r) {
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
    LegacySacctReader keep(String... names) {
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

    /** Rows skipped because their field count did not match the header. */
    public long malformedRows() {
        return malformed;
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
        String line;
        try {
            line = in.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (line == null) {
            exhausted = true;
            flush();
            return;
        }
        if (line.isBlank()) {
            return;
        }
        if (separator == null) {
            separator = readHeader != null ? separator(readHeader, true) : separator(line, false);
        }
        String[] f = split(line, separator);
        if (f.length > width && separator.equals("|")) {
            f = repairFreeText(f);
        }
        if (f.length != width) {
            malformed++;
            return;
        }
        JobId id = JobId.tryParse(get(f, "jobid")).orElse(null);
        if (id == null) {
            malformed++;
            return;
        }
        if (id.isStep()) {
            String key = id.withoutStep().toString();
            if (current != null && key.equals(currentKey)) {
                foldStep(f);
            }
            return;
        }
        flush();
        current = parseAllocation(id, f);
        currentKey = id.toString();
        if (keptColumns.length > 0) {
            Map<String, String> k = new HashMap<>();
            for (int i = 0; i < keptColumns.length; i++) {
                if (keptColumns[i] >= 0) {
                    k.put(keptNames[i], f[keptColumns[i]].strip());
                }
            }
            currentKept = k;
        }
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
     * keeps the first split whose State is a SLURM state; returns the row unchanged when none is (then another
     * column held the '|').
     */
    private String[] repairFreeText(String[] f) {
        Integer name = column.get("jobname");
        Integer state = column.get("state");
        if (state == null) {
            return f;
        }
        Integer submit = column.get("submitline");
        boolean freeLast = submit != null && submit == width - 1;
        int extra = f.length - width;
        for (int inName = freeLast ? 0 : extra; inName <= extra; inName++) {
            if (inName > 0 && name == null) {
                break;
            }
            String[] out = new String[width];
            int from = 0;
            for (int c = 0; c < width; c++) {
                int take = 1 + (name != null && c == name ? inName : 0) + (freeLast && c == width - 1 ? extra - inName : 0);
                out[c] = take == 1 ? f[from] : String.join("|", java.util.Arrays.asList(f).subList(from, from + take));
                from += take;
            }
            if (JobState.parse(out[state]) != JobState.UNKNOWN) {
                return out;
            }
        }
        return f;
    }

    private void flush() {
        if (current != null) {
            ready = current.build();
            readyKept = currentKept;
            currentKept = Map.of();
            current = null;
            currentKey = null;
        }
    }

    private void foldStep(String[] f) {
        DataSize rss = DataSize.tryParse(get(f, "maxrss"), DataSize.KIB).orElse(null);
        if (rss != null && (current.maxRss() == null || rss.compareTo(current.maxRss()) > 0)) {
            current.maxRss(rss);
        }
        if (current.failedStep() == null) {
            JobStatus st = JobStatus.parse(get(f, "state"));
            if (Outcome.of(st.state()) == Outcome.FAILED) {
                current.failedStep(new FailedStep(get(f, "jobid").strip(), st,
                        ExitCode.tryParse(get(f, "exitcode")).orElse(null)));
            }
        }
    }

    private JobRecord.Builder parseAllocation(JobId id, String[] f) {
        JobStatus status = JobStatus.parse(get(f, "state"));
        String reason = blankToNull(get(f, "reason"));
        JobRecord.Builder b = JobRecord.builder(id)
                .name(get(f, "jobname"))
                .user(blankToNull(get(f, "user")))
                .account(blankToNull(get(f, "account")))
                .partition(blankToNull(get(f, "partition")))
                .qos(blankToNull(get(f, "qos")))
                .status(status)
                .exitCode(ExitCode.tryParse(get(f, "exitcode")).orElse(null))
                .submit(SlurmTime.parseTimestamp(get(f, "submit")).orElse(null))
                .start(SlurmTime.parseTimestamp(get(f, "start")).orElse(null))
                .end(SlurmTime.parseTimestamp(get(f, "end")).orElse(null))
                .elapsed(SlurmTime.parseDuration(get(f, "elapsed")).orElse(null))
                .timeLimit(TimeLimit.parse(get(f, "timelimit")))
                .reqMem(MemoryRequest.tryParse(get(f, "reqmem")).orElse(null))
                .maxRss(DataSize.tryParse(get(f, "maxrss"), DataSize.KIB).orElse(null))
                .allocCpus(parseInt(get(f, "alloccpus")))
                .allocTres(Tres.parse(get(f, "alloctres")))
                .reqTres(Tres.parse(get(f, "reqtres")))
                .nodeList(blankToNull(get(f, "nodelist")))
                .totalCpu(SlurmTime.parseDuration(get(f, "totalcpu")).orElse(null))
                .consumedEnergyJoules(parseEnergy(get(f, "consumedenergyraw")))
                .workDir(blankToNull(get(f, "workdir")))
                .stdoutPath(blankToNull(get(f, "stdout")))
                .stderrPath(blankToNull(get(f, "stderr")))
                .cluster(blankToNull(get(f, "cluster")));
        boolean cancelledWaiting = status.state() == JobState.CANCELLED && column.containsKey("start")
                && SlurmTime.parseTimestamp(get(f, "start")).isEmpty();
        if ((status.state() == JobState.PENDING || cancelledWaiting) && reason != null && !reason.equals("None")) {
            b.pendingReason(reason);
        }
        return b;
    }

    private String get(String[] f, String name) {
        Integer i = column.get(name);
        return i == null ? "" : f[i];
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static int parseInt(String s) {
        try {
            // a negative count is SLURM's NO_VAL or INFINITE in signed form (-2, -1): unknown, as the reader reads it
            return s == null || s.isBlank() ? 0 : Math.max(0, Integer.parseInt(s.strip()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** sacct prints 0 when no energy plugin measured anything: that is unknown, not zero. */
    private static Long parseEnergy(String s) {
        try {
            long v = s == null || s.isBlank() ? 0 : Long.parseLong(s.strip());
            return v > 0 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
