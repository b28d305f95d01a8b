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

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * A SLURM cluster replayed from files: {@code sacct.psv} (what {@code sacct -P} prints, steps included),
 * {@code partitions.psv} (sinfo), {@code logs/<jobid>.out|.err}, {@code scripts/<jobid>.sh}, and an optional
 * {@code cluster.properties}. A folder without {@code logs/<jobid>.*} reads the job's StdOut/StdErr where its record
 * says, only when that file belongs to the job's user. With {@code replay.shift-to-now=true} timestamps are moved so the newest job ends
 * just now, so a fixture recorded once stays inside "the last 30 days".
 */
public final class MockBackend implements SlurmBackend {

    public static final String SACCT_FILE = "sacct.psv";
    public static final String BUNDLED = "io/slurmwise/mock/cluster";

    private final FixtureSource source;
    /** Every record, in the export's order: a requeued job's runs ({@code sacct -D}) are records of one id. */
    private final List<JobRecord> records;
    /** The records of each id, oldest first; the last is the job. */
    private final Map<String, List<JobRecord>> byId;
    private final long repeated;
    private final List<Partition> partitions;
    private final Properties properties;

    MockBackend(FixtureSource source, LocalDateTime now) {
        this.source = source;
        byte[] sacct = source.read(SACCT_FILE).orElseThrow(() -> new BackendException(
                source.describe() + " has no " + SACCT_FILE + "; export one with sacct -P --format="
                        + String.join(",", SacctReader.FIELDS)));
        Properties props = new Properties();
        source.read("cluster.properties").ifPresent(b -> {
            try {
                props.load(new ByteArrayInputStream(b));
            } catch (IOException e) {
                throw new BackendException("cannot read cluster.properties of " + source.describe(), e);
            }
        });
        List<JobRecord> loaded = new ArrayList<>();
        try (Stream<JobRecord> s = SacctReader.toStream(SacctReader.open(new ByteArrayInputStream(sacct)))) {
            s.forEach(loaded::add);
        } catch (IllegalArgumentException e) {
            throw new BackendException(source.describe() + ": " + e.getMessage(), e);
        }
        if (Boolean.parseBoolean(props.getProperty("replay.shift-to-now", "false"))) {
            loaded = shift(loaded, now);
        }
        Map<String, List<JobRecord>> ids = new LinkedHashMap<>();
        loaded.forEach(j -> ids.computeIfAbsent(j.id().toString(), k -> new ArrayList<>(1)).add(j));
        this.records = Collections.unmodifiableList(loaded);
        this.byId = Collections.unmodifiableMap(ids);
        this.repeated = loaded.size() - ids.size();
        this.properties = props;
        this.partitions = source.read("partitions.psv")
                .map(b -> SinfoParser.parse(new String(b, StandardCharsets.UTF_8)))
                .orElse(List.of());
    }

    public static MockBackend bundled() {
        return new MockBackend(FixtureSource.classpath(BUNDLED), LocalDateTime.now());
    }

    /** A bundled dataset other than the default cluster, e.g. {@code io/slurmwise/mock/seed-window}. */
    public static MockBackend bundled(String classpathFolder) {
        return new MockBackend(FixtureSource.classpath(classpathFolder), LocalDateTime.now());
    }

    public static MockBackend fromFolder(Path dir) {
        return new MockBackend(FixtureSource.folder(dir), LocalDateTime.now());
    }

    /** For tests: replay with a fixed "now". */
    static MockBackend at(FixtureSource source, LocalDateTime now) {
        return new MockBackend(source, now);
    }

    private static List<JobRecord> shift(List<JobRecord> jobs, LocalDateTime now) {
        LocalDateTime newest = null;
        for (JobRecord j : jobs) {
            for (LocalDateTime t : new LocalDateTime[] {j.submit(), j.start(), j.end()}) {
                if (t != null && (newest == null || t.isAfter(newest))) {
                    newest = t;
                }
            }
        }
        if (newest == null) {
            return jobs;
        }
        Duration delta = Duration.between(newest, now.truncatedTo(ChronoUnit.MINUTES).minusMinutes(5));
        List<JobRecord> out = new ArrayList<>(jobs.size());
        for (JobRecord j : jobs) {
            out.add(j.toBuilder().submit(plus(j.submit(), delta)).start(plus(j.start(), delta))
                    .end(plus(j.end(), delta)).build());
        }
        return out;
    }

    private static LocalDateTime plus(LocalDateTime t, Duration d) {
        return t == null ? null : t.plus(d);
    }

    @Override
    public String name() {
        return "mock";
    }

    /** Where the fixtures come from, and how many records repeat a JobID when some do. */
    public String describe() {
        return source.describe() + (repeated == 0 ? "" : " (" + repeated + (repeated == 1 ? " record repeats"
                : " records repeat") + " a JobID: a requeued job's runs, as sacct -D lists them; each run counts in"
                + " stats, the last is the job)");
    }

    /** Records beyond the first of their JobID (a requeued job's earlier runs, a resized job's parts). */
    public long repeatedRecords() {
        return repeated;
    }

    /**
     * The records {@code sacct -j ID} would print for the id, decided by {@link JobLookup#of}: the id's own records
     * (a requeued job's runs), else the tasks of the array or the components of the het job it names.
     */
    @Override
    public JobLookup lookup(JobId id) {
        List<JobRecord> exact = byId.get(id.withoutStep().toString());
        if (exact != null) {
            return JobLookup.of(id, exact, UnaryOperator.identity());
        }
        JobId whole = id.withoutStep();
        List<JobRecord> members = !JobLookup.namesWholeArray(whole) ? List.of() : byId.values().stream()
                .map(runs -> runs.get(runs.size() - 1))
                .filter(j -> JobLookup.isMember(j.id(), whole))
                .toList();
        return JobLookup.of(id, members, UnaryOperator.identity());
    }

    /** Every record in the window: a requeued job's runs each (each used its allocation). */
    @Override
    public Stream<JobRecord> jobs(JobQuery q) {
        return records.stream().filter(q::covers);
    }

    @Override
    public LogTail logTail(JobRecord job, LogStream stream, int maxLines) {
        String shown = stream == LogStream.STDOUT ? job.stdoutPath() : job.stderrPath();
        String rel = "logs/" + job.id() + (stream == LogStream.STDOUT ? ".out" : ".err");
        Optional<Path> onDisk = source.file(rel);
        if (onDisk.isPresent()) {
            LogTail t = LogTails.read(onDisk.get(), stream, maxLines);
            return new LogTail(stream, shown != null ? shown : t.path(), t.content(), t.firstLine(), t.fileSize(), t.problem());
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
        return LogTails.ofBytes(stream, shown != null ? shown : rel, bytes.get(), maxLines);
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

    /** Parses {@code text} as sacct output; used by tests of hand-written fixtures. */
    static List<JobRecord> parse(String sacct) {
        try (Stream<JobRecord> s = SacctReader.stream(new StringReader(sacct))) {
            return s.toList();
        }
    }
}
