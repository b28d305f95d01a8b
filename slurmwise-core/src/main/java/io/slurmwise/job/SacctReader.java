package io.slurmwise.job;

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
 * Fields are found by header name, so any subset and order works. The separator is {@code '|'} (sacct's default)
 * or {@link #DELIMITER}, which the real backend asks for with {@code --delimiter} so that no name or path can
 * contain it; the header (or, without one, the first row) tells which. With {@code '|'}, a row with too many
 * fields whose extra separators can only be inside the job name (the one free-text field users name freely:
 * {@code sbatch -J "prep|v2"}) is repaired when the header has a JobName column and the repaired row's State is a
 * SLURM state. Other rows with the wrong number of fields are skipped and counted ({@link #malformedRows()}).
 */
public final class SacctReader implements Iterator<JobRecord>, AutoCloseable {

    /**
     * The field delimiter slurmwise passes to {@code sacct -P --delimiter}: the ASCII unit separator, which no
     * name or path holds, then '|' (an argument cannot end in a control character: the process library trims it).
     */
    public static final String DELIMITER = "\u001f|";

    /** The fields slurmwise asks sacct for, in this order (StdOut/StdErr only where sacct has them, 23.02+). */
    public static final List<String> FIELDS = List.of("JobID", "JobName", "User", "Account", "Partition", "QOS",
            "State", "ExitCode", "DerivedExitCode", "Submit", "Start", "End", "Elapsed", "Timelimit", "ReqMem",
            "MaxRSS", "AllocCPUS", "AllocTRES", "NodeList", "TotalCPU", "ConsumedEnergyRaw", "WorkDir", "StdOut",
            "StdErr", "Reason");

    private final BufferedReader in;
    private final Map<String, Integer> column = new HashMap<>();
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

    private SacctReader(Reader reader, String headerLine) {
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
        String[] names = split(header, header.contains(DELIMITER) ? DELIMITER : "|");
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
    public static SacctReader open(Reader reader) {
        return new SacctReader(reader, null);
    }

    /**
     * For {@code sacct -P -n} output, whose header the caller knows (the field list it asked for); the separator is
     * taken from the first row.
     */
    public static SacctReader open(Reader reader, List<String> fields) {
        return new SacctReader(reader, String.join("|", fields));
    }

    public static Stream<JobRecord> stream(Reader reader) {
        return toStream(open(reader));
    }

    public static Stream<JobRecord> toStream(SacctReader r) {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(r, Spliterator.ORDERED | Spliterator.NONNULL),
                false).onClose(r::close);
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
            boolean ours = readHeader != null ? readHeader.contains(DELIMITER) : line.contains(DELIMITER);
            separator = ours ? DELIMITER : "|";
        }
        String[] f = split(line, separator);
        if (f.length > width && separator.equals("|")) {
            f = repairJobName(f);
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
     * Joins the surplus fields of a '|'-separated row back into its JobName. Returns the row unchanged when the
     * header has no JobName or the repaired row's State is not a SLURM state (then another column held the '|').
     */
    private String[] repairJobName(String[] f) {
        Integer name = column.get("jobname");
        Integer state = column.get("state");
        if (name == null || state == null) {
            return f;
        }
        int extra = f.length - width;
        String[] out = new String[width];
        System.arraycopy(f, 0, out, 0, name);
        out[name] = String.join("|", java.util.Arrays.asList(f).subList(name, name + extra + 1));
        System.arraycopy(f, name + extra + 1, out, name + 1, width - name - 1);
        return JobState.parse(out[state]) == JobState.UNKNOWN ? f : out;
    }

    private void flush() {
        if (current != null) {
            ready = current.build();
            current = null;
            currentKey = null;
        }
    }

    private void foldStep(String[] f) {
        DataSize rss = DataSize.tryParse(get(f, "maxrss"), DataSize.KIB).orElse(null);
        if (rss != null && (current.maxRss() == null || rss.compareTo(current.maxRss()) > 0)) {
            current.maxRss(rss);
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
                .nodeList(blankToNull(get(f, "nodelist")))
                .totalCpu(SlurmTime.parseDuration(get(f, "totalcpu")).orElse(null))
                .consumedEnergyJoules(parseEnergy(get(f, "consumedenergyraw")))
                .workDir(blankToNull(get(f, "workdir")))
                .stdoutPath(blankToNull(get(f, "stdout")))
                .stderrPath(blankToNull(get(f, "stderr")));
        if (status.state() == JobState.PENDING && reason != null && !reason.equals("None")) {
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
            return s == null || s.isBlank() ? 0 : Integer.parseInt(s.strip());
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
