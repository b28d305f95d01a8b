package io.slurmwise.backend.mock;

import io.slurmwise.backend.BackendException;
import io.slurmwise.backend.JobLookup;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.LogTails;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.job.SacctReader;
import io.slurmwise.job.SinfoParser;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * A SLURM cluster replayed from files: {@code sacct.psv} (what {@code sacct -P} prints, steps included),
 * {@code partitions.psv} (sinfo), an optional {@code scontrol_partition.txt} ({@code scontrol show partition}: own
 * QOS, AllowQos/DenyQos), an optional {@code scontrol_reservation.txt} ({@code scontrol show reservation}), an
 * optional {@code qos.psv} ({@code sacctmgr -P show qos format=Name,MaxWall,Preempt}),
 * {@code logs/<jobid>.out|.err}, {@code scripts/<jobid>.sh}, and an optional
 * {@code cluster.properties}. A folder without {@code logs/<jobid>.*} reads the job's StdOut/StdErr where its record
 * says, only when that file belongs to the job's user. With {@code replay.shift-to-now=true} timestamps are moved so the newest job ends
 * just now, so a fixture recorded once stays inside "the last 30 days", and the logs' timestamps move with them. The export is replayed from the file on
 * every query, never held: a centre's year of sacct rows costs the memory of one job.
 */
public final class MockBackend implements SlurmBackend {

    public static final String SACCT_FILE = "sacct.psv";
    public static final String BUNDLED = "io/slurmwise/mock/cluster";

    private final FixtureSource source;
    private final LocalDateTime now;
    private final List<Partition> partitions;
    private final List<io.slurmwise.job.Qos> qos;
    private final Properties properties;
    private final Consumer<String> notices;
    // found by one pass over the export, on the first question: how far timestamps move (replay.shift-to-now),
    // and how many records repeat the JobID of the record before them (sacct -D prints a job's runs together)
    private Duration shift;
    /** The newest timestamp of the records as written (before any shift). */
    private LocalDateTime newest;
    private long repeated;

    MockBackend(FixtureSource source, LocalDateTime now) {
        this(source, now, null);
    }

    MockBackend(FixtureSource source, LocalDateTime now, Consumer<String> notices) {
        this.source = source;
        this.now = now;
        this.notices = notices == null ? m -> { } : notices;
        Optional<InputStream> sacct = source.open(SACCT_FILE);
        sacct.ifPresent(MockBackend::closeQuietly);
        if (sacct.isEmpty()) {
            throw new BackendException(source.describe() + " has no " + SACCT_FILE + "; export one with sacct -P"
                    + " --format=" + String.join(",", SacctReader.FIELDS));
        }
        Properties props = new Properties();
        source.read("cluster.properties").ifPresent(b -> {
            try {
                props.load(new ByteArrayInputStream(b));
            } catch (IOException e) {
                throw new BackendException("cannot read cluster.properties of " + source.describe(), e);
            }
        });
        this.properties = props;
        open().close(); // a file that is no sacct export is said at once, not at the first query
        // scontrol show partition (optional) says what sinfo cannot: each partition's own QOS and the QOSes it admits
        List<Partition> sinfo = source.read("partitions.psv")
                .map(b -> SinfoParser.parse(new String(b, StandardCharsets.UTF_8)))
                .orElse(List.of());
        this.partitions = source.read("scontrol_partition.txt")
                .map(b -> Partition.withScontrol(sinfo, new String(b, StandardCharsets.UTF_8))).orElse(sinfo);
        this.qos = source.read("qos.psv").map(b -> {
            try {
                return io.slurmwise.job.Qos.parse(new String(b, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new BackendException("qos.psv of " + source.describe() + ": " + e.getMessage() + "; export it with"
                        + " sacctmgr -P show qos format=" + io.slurmwise.job.Qos.FORMAT);
            }
        }).orElse(List.of());
    }

    public static MockBackend bundled() {
        return new MockBackend(FixtureSource.classpath(BUNDLED), LocalDateTime.now());
    }

    /**
     * The bundled cluster with its timestamps as recorded, not moved to end just now: for text written once against
     * its logs and records (the guard's answer sets cite the logs' times).
     */
    public static MockBackend bundledAsRecorded() {
        MockBackend b = new MockBackend(FixtureSource.classpath(BUNDLED), LocalDateTime.now());
        b.properties.setProperty("replay.shift-to-now", "false");
        return b;
    }

    /** A bundled dataset other than the default cluster, e.g. {@code io/slurmwise/mock/seed-window}. */
    public static MockBackend bundled(String classpathFolder) {
        return new MockBackend(FixtureSource.classpath(classpathFolder), LocalDateTime.now());
    }

    public static MockBackend fromFolder(Path dir) {
        return new MockBackend(FixtureSource.folder(dir), LocalDateTime.now());
    }

    /** @param notices told about rows of the export that could not be read, a line per query */
    public static MockBackend fromFolder(Path dir, Consumer<String> notices) {
        return new MockBackend(FixtureSource.folder(dir), LocalDateTime.now(), notices);
    }

    /** For tests: replay with a fixed "now". */
    static MockBackend at(FixtureSource source, LocalDateTime now) {
        return new MockBackend(source, now);
    }

    /** The export's reader, from the start: every query replays the file, so no export is ever held whole. */
    private SacctReader open() {
        InputStream in = source.open(SACCT_FILE).orElseThrow(() -> new BackendException(source.describe()
                + " no longer has " + SACCT_FILE));
        try {
            return SacctReader.open(new BufferedInputStream(in, 1 << 16));
        } catch (IllegalArgumentException e) {
            closeQuietly(in);
            throw new BackendException(source.describe() + ": " + e.getMessage(), e);
        } catch (java.io.UncheckedIOException e) {
            closeQuietly(in);
            throw new BackendException("cannot read " + SACCT_FILE + " of " + source.describe() + ": "
                    + e.getCause().getMessage(), e);
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // it could not be read either: the first error is the one to say
        }
    }

    /** Every record of the export, timestamps shifted, as it is read; rows that cannot be read are told once. */
    private Stream<JobRecord> replay() {
        Duration delta = shift();
        SacctReader r = open();
        Stream<JobRecord> rows = SacctReader.toStream(r).map(j -> delta.isZero() ? j : shifted(j, delta));
        Stream<JobRecord> end = Stream.of(0).flatMap(x -> {
            if (r.malformedRows() > 0) {
                notices.accept(SACCT_FILE + " of " + source.describe() + " has " + r.malformedRows() + " row"
                        + (r.malformedRows() == 1 ? "" : "s") + " that slurmwise could not read ("
                        + r.firstMalformedRow() + "); they are left out: fix them, or export again with sacct -P");
            }
            return Stream.empty();
        });
        return Stream.concat(rows, end).onClose(r::close);
    }

    private synchronized Duration shift() {
        if (shift == null) {
            survey();
        }
        return shift;
    }

    private void survey() {
        LocalDateTime newest = null;
        long repeats = 0;
        String previous = null;
        try (SacctReader r = open()) {
            while (r.hasNext()) {
                JobRecord j = r.next();
                String id = j.id().toString();
                if (id.equals(previous)) {
                    repeats++;
                }
                previous = id;
                for (LocalDateTime t : new LocalDateTime[] {j.submit(), j.start(), j.end()}) {
                    if (t != null && (newest == null || t.isAfter(newest))) {
                        newest = t;
                    }
                }
            }
        }
        repeated = repeats;
        this.newest = newest;
        shift = newest == null || !Boolean.parseBoolean(properties.getProperty("replay.shift-to-now", "false"))
                ? Duration.ZERO : Duration.between(newest, now.truncatedTo(ChronoUnit.MINUTES).minusMinutes(5));
    }

    private static JobRecord shifted(JobRecord j, Duration delta) {
        return j.toBuilder().submit(plus(j.submit(), delta)).start(plus(j.start(), delta))
                .end(plus(j.end(), delta)).build();
    }

    private static LocalDateTime plus(LocalDateTime t, Duration d) {
        return t == null ? null : t.plus(d);
    }

    @Override
    public String name() {
        return "mock";
    }

    /**
     * The reservations of {@code scontrol_reservation.txt} ({@code scontrol show reservation}), moved as the records
     * are (replay.shift-to-now), so a maintenance window recorded after the newest job still lies ahead.
     */
    @Override
    public List<io.slurmwise.job.Reservation> reservations() {
        Optional<byte[]> text = source.read("scontrol_reservation.txt");
        if (text.isEmpty()) {
            return List.of();
        }
        List<io.slurmwise.job.Reservation> rs;
        try {
            rs = io.slurmwise.job.Reservation.parse(new String(text.get(), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new BackendException("scontrol_reservation.txt of " + source.describe() + ": " + e.getMessage()
                    + "; save it with scontrol show reservation");
        }
        Duration delta = shift();
        return delta.isZero() ? rs : rs.stream().map(r -> r.shifted(delta)).toList();
    }

    /** Where the fixtures come from, and how many records repeat a JobID when some do. */
    public String describe() {
        long repeats = repeatedRecords();
        return source.describe() + (repeats == 0 ? "" : " (" + repeats + (repeats == 1 ? " record repeats"
                : " records repeat") + " a JobID: a requeued job's runs, as sacct -D lists them; each run counts in"
                + " stats, the last is the job)");
    }

    /** Records that repeat the JobID of the record before them (a requeued job's earlier runs, as sacct -D prints them). */
    public synchronized long repeatedRecords() {
        shift();
        return repeated;
    }

    /**
     * The records {@code sacct -j ID} would print for the id, decided by {@link JobLookup#of}, from one pass over
     * the export: the id's own records (a requeued job's runs), else the tasks of the array or the components of
     * the het job it names (the last record of each), or for a task id the records of its array (as the real backend
     * asks {@code sacct -j} the array when the task has no row: one waiting in a pending range has none).
     */
    @Override
    public JobLookup lookup(JobId id) {
        String wanted = id.withoutStep().toString();
        JobId whole = id.withoutStep();
        boolean group = JobLookup.namesWholeArray(whole);
        // a task without a record of its own: the array's records, among which JobLookup finds the pending row
        JobId array = JobLookup.arrayToAsk(whole).orElse(null);
        List<JobRecord> exact = new ArrayList<>();
        Map<String, JobRecord> members = new LinkedHashMap<>();
        try (Stream<JobRecord> s = replay()) {
            Iterator<JobRecord> it = s.iterator();
            while (it.hasNext()) {
                JobRecord j = it.next();
                if (j.id().toString().equals(wanted)) {
                    exact.add(j);
                } else if (exact.isEmpty() && (group && JobLookup.isMember(j.id(), whole)
                        || array != null && JobLookup.isMember(j.id(), array))) {
                    members.put(j.id().toString(), j);
                }
            }
        }
        return JobLookup.of(id, exact.isEmpty() ? new ArrayList<>(members.values()) : exact, UnaryOperator.identity());
    }

    /**
     * The export's jobs that the query selects, replayed from the file as they are read: every record in the
     * window, a requeued job's runs each (each used its allocation).
     */
    @Override
    public Stream<JobRecord> jobs(JobQuery q) {
        return replay().filter(q::covers);
    }

    @Override
    public LogTail logTail(JobRecord job, LogStream stream, int maxLines) {
        String shown = stream == LogStream.STDOUT ? job.stdoutPath() : job.stderrPath();
        String rel = "logs/" + job.id() + (stream == LogStream.STDOUT ? ".out" : ".err");
        Optional<Path> onDisk = source.file(rel);
        if (onDisk.isPresent()) {
            LogTail t = LogTails.read(onDisk.get(), stream, maxLines);
            return new LogTail(stream, shown != null ? shown : t.path(), shiftedText(t.content()), t.firstLine(),
                    t.fileSize(), t.problem());
        }
        Optional<byte[]> bytes = source.read(rel);
        if (bytes.isEmpty() && source.file(SACCT_FILE).isPresent() && shown != null && Path.of(shown).isAbsolute()) {
            // an export of a real cluster's sacct: its logs are where the records say, and only the job's own
            return LogTails.readOwnedBy(Path.of(shown), stream, maxLines, job.user());
        }
        if (bytes.isEmpty()) {
            String where = shown != null ? shown : rel;
            return LogTail.unavailable(stream, where, where + " does not exist (the job wrote no " + stream.label()
                    + " file, or it was deleted)");
        }
        return LogTails.ofBytes(stream, shown != null ? shown : rel, shiftedText(bytes.get()), maxLines);
    }

    /** A timestamp as logs write it: ISO 8601 ({@code 2026-11-16T03:52:11}, SLURM's) or with a space. */
    private static final java.util.regex.Pattern LOG_TIME = java.util.regex.Pattern.compile(
            "(?<![0-9])(20[0-9]{2})-([0-9]{2})-([0-9]{2})([T ])([0-9]{2}):([0-9]{2}):([0-9]{2})(?![0-9])");

    /**
     * A replayed log's timestamps moved as its records' are (replay.shift-to-now), so a line such as {@code CANCELLED AT
     * 2026-11-16T03:52:11} agrees with the record's End (an outside audit read the two a week apart). Each is replaced
     * by one of the same length: line numbers and offsets stay. Only times within a year of the records' are moved.
     */
    private byte[] shiftedText(byte[] content) {
        Duration delta = shift();
        if (delta.isZero() || content.length == 0) {
            return content;
        }
        String text = new String(content, java.nio.charset.StandardCharsets.ISO_8859_1); // byte for byte
        java.util.regex.Matcher m = LOG_TIME.matcher(text);
        StringBuilder sb = null;
        int last = 0;
        while (m.find()) {
            LocalDateTime t;
            try {
                t = LocalDateTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                        Integer.parseInt(m.group(3)), Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)),
                        Integer.parseInt(m.group(7)));
            } catch (java.time.DateTimeException e) {
                continue; // no time (2026-13-40): left as written
            }
            if (newest == null || Duration.between(t, newest).abs().compareTo(Duration.ofDays(365)) > 0) {
                continue;
            }
            LocalDateTime u = t.plus(delta);
            String moved = String.format(java.util.Locale.ROOT, "%04d-%02d-%02d%s%02d:%02d:%02d", u.getYear(),
                    u.getMonthValue(), u.getDayOfMonth(), m.group(4), u.getHour(), u.getMinute(), u.getSecond());
            if (sb == null) {
                sb = new StringBuilder(text.length());
            }
            sb.append(text, last, m.start()).append(moved);
            last = m.end();
        }
        if (sb == null) {
            return content;
        }
        sb.append(text, last, text.length());
        return sb.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** The replayed cluster's users ({@code uid.<n>=<name>}) and this host's. */
    @Override
    public boolean knowsUser(String name) {
        return properties.stringPropertyNames().stream().anyMatch(k -> k.startsWith("uid.")
                && properties.getProperty(k).equals(name)) || SlurmBackend.super.knowsUser(name);
    }

    /** The fixture's {@code uid.<n>=<name>} lines (the replayed cluster's users), else this host's. */
    @Override
    public Optional<String> userName(long uid) {
        String name = properties.getProperty("uid." + uid);
        return name != null ? Optional.of(name) : SlurmBackend.super.userName(uid);
    }

    @Override
    public Optional<String> batchScript(JobRecord job) {
        Optional<byte[]> b = source.read("scripts/" + job.id().withoutStep() + ".sh");
        if (b.isEmpty() && job.id().isArrayTask()) {
            b = source.read("scripts/" + job.id().arrayJobId() + ".sh");
        }
        return b.map(bytes -> new String(bytes, StandardCharsets.UTF_8));
    }

    @Override
    public List<Partition> partitions() {
        return partitions;
    }

    @Override
    public List<io.slurmwise.job.Qos> qos() {
        return qos;
    }

    /** The account's row of the fixture's {@code shares.psv} ({@code sshare -P -o} {@link io.slurmwise.job.AccountUsage#FORMAT}). */
    @Override
    public Optional<io.slurmwise.job.AccountUsage> accountUsage(String account) {
        if (account == null || account.isBlank()) {
            return Optional.empty();
        }
        return source.read("shares.psv").flatMap(b -> {
            try {
                return io.slurmwise.job.AccountUsage.parse(new String(b, StandardCharsets.UTF_8), account.strip());
            } catch (IllegalArgumentException e) {
                throw new BackendException("shares.psv of " + source.describe() + ": " + e.getMessage() + "; export it"
                        + " with sshare -a -P -o " + io.slurmwise.job.AccountUsage.FORMAT);
            }
        });
    }

    /** The user's rows of the fixture's {@code associations.psv} ({@code sacctmgr -P show assoc format=}{@link io.slurmwise.job.Association#FORMAT}). */
    @Override
    public List<io.slurmwise.job.Association> associations(String user) {
        if (user == null || user.isBlank()) {
            return List.of();
        }
        return source.read("associations.psv").map(b -> {
            try {
                return io.slurmwise.job.Association.parse(new String(b, StandardCharsets.UTF_8)).stream()
                        .filter(a -> a.user().equals(user.strip())).toList();
            } catch (IllegalArgumentException e) {
                throw new BackendException("associations.psv of " + source.describe() + ": " + e.getMessage()
                        + "; export it with sacctmgr -P show assoc format=" + io.slurmwise.job.Association.FORMAT);
            }
        }).orElse(List.of());
    }

    /** Parses {@code text} as sacct output; used by tests of hand-written fixtures. */
    static List<JobRecord> parse(String sacct) {
        try (Stream<JobRecord> s = SacctReader.stream(new StringReader(sacct))) {
            return s.toList();
        }
    }
}
