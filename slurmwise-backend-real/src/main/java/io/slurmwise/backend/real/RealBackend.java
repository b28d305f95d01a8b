package io.slurmwise.backend.real;

import io.slurmwise.backend.BackendException;
import io.slurmwise.backend.JobLookup;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.LogTails;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.Partition;
import io.slurmwise.job.SacctReader;
import io.slurmwise.job.SinfoParser;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real SLURM cluster, read through {@code sacct -P} (job records), {@code scontrol show job} and {@code squeue}
 * (pending reasons, the controller's exit code, log paths while it remembers the job), {@code scontrol write
 * batch_script ID -} / {@code sacct --batch-script} (the script's {@code #SBATCH} log options) and {@code sinfo}
 * (partitions). Strictly read-only: every command passes the {@link Allowlist}.
 *
 * <pre>{@code
 * try (RealBackend slurm = RealBackend.create(RealBackendConfig.from(Settings.fromEnvironment()))) {
 *     JobRecord job = slurm.job(JobId.parse("1001")).orElseThrow();
 *     LogTail err = slurm.logTail(job, LogStream.STDERR, 300);
 * }
 * }</pre>
 *
 * Log reads are limited to the job's own stdout/stderr files as SLURM records them: a record whose paths differ
 * from what the cluster says is refused, and only regular files are read.
 */
public final class RealBackend implements SlurmBackend {

    private static final DateTimeFormatter SACCT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");
    private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);
    // states sacct -s understands; a query for others is filtered here instead
    private static final Set<JobState> SACCT_STATES = EnumSet.of(JobState.BOOT_FAIL, JobState.CANCELLED,
            JobState.COMPLETED, JobState.DEADLINE, JobState.FAILED, JobState.NODE_FAIL, JobState.OUT_OF_MEMORY,
            JobState.PENDING, JobState.PREEMPTED, JobState.RUNNING, JobState.REQUEUED, JobState.RESIZING,
            JobState.REVOKED, JobState.SUSPENDED, JobState.TIMEOUT);

    private final SlurmCommands slurm;
    private final Map<String, LogLocation> locations = new ConcurrentHashMap<>();

    private RealBackend(RealBackendConfig config) {
        this.slurm = new SlurmCommands(config);
    }

    public static RealBackend create(RealBackendConfig config) {
        return new RealBackend(config);
    }

    @Override
    public String name() {
        return "real";
    }

    /** The SLURM release of the cluster's sacct (probed once per process). */
    public SlurmVersion version() {
        return slurm.version();
    }

    /**
     * One {@code sacct -j ID} (steps folded, JobIDRaw and SubmitLine kept), decided by {@link JobLookup#of}; the
     * job found, or an array task opened later, is completed from the same answer plus the controller's view.
     */
    @Override
    public JobLookup lookup(JobId id) {
        List<String> fields = SacctFields.forJob(version());
        // a step id (45.batch) names its job: ask for the job, whose row carries the record
        String out = slurm.sacct(List.of("-P", "-j", id.withoutStep().toString(), "-o", String.join(",", fields)));
        List<JobRecord> found = new ArrayList<>();
        Map<String, Extras> extras = new HashMap<>();
        try (SacctReader r = SacctReader.open(new StringReader(out)).keep(JOB_ID_RAW, SUBMIT_LINE)) {
            while (r.hasNext()) {
                JobRecord j = r.next();
                found.add(j);
                extras.put(j.id().toString(), new Extras(r.kept().get(JOB_ID_RAW), r.kept().get(SUBMIT_LINE)));
            }
        }
        return JobLookup.of(id, found, j -> enrich(j, extras.getOrDefault(j.id().toString(), Extras.NONE)));
    }

    private static final String JOB_ID_RAW = "JobIDRaw";
    private static final String SUBMIT_LINE = "SubmitLine";

    /** The columns of a job's row that its record has no place for. */
    private record Extras(String jobIdRaw, String submitLine) {
        static final Extras NONE = new Extras(null, null);
    }

    /** Adds what sacct does not know: the pending reason, the controller's exit code and the log paths. */
    private JobRecord enrich(JobRecord r, Extras extras) {
        JobRecord.Builder b = r.toBuilder();
        if (r.state() == JobState.PENDING) {
            try {
                String reason = slurm.squeueReasons(List.of(r.id()), null).get(r.id().toString());
                if (reason != null) {
                    b.pendingReason(reason);
                }
            } catch (SlurmCommandException e) {
                if (e.controllerUnavailable()) {
                    throw new SlurmCommandException(e.failure(), e.command(), "job " + r.id() + " is PENDING in"
                            + " accounting, but only slurmctld knows why it waits, and it did not answer: "
                            + e.getMessage());
                }
                throw e;
            }
            return b.build();
        }
        Optional<ScontrolJob> sc = scontrol(r.id());
        sc.flatMap(ScontrolJob::exitCode).ifPresent(b::exitCodeView);
        LogLocation loc = resolveLogs(r, sc, extras);
        locations.put(r.id().toString(), loc);
        return b.stdoutPath(loc.stdout()).stderrPath(loc.stderr()).build();
    }

    /**
     * The job as slurmctld shows it; empty when it forgot the job or cannot answer: its view only adds to sacct's
     * (the shell's exit code, recent log paths), so the record stands without it.
     */
    private Optional<ScontrolJob> scontrol(JobId id) {
        try {
            return slurm.scontrolShowJob(id).flatMap(text -> ScontrolJob.parseAll(text).stream()
                    .filter(j -> j.displayId().equals(id.toString()) || j.jobId().equals(id.toString()))
                    .findFirst());
        } catch (SlurmCommandException e) {
            return Optional.empty();
        }
    }

    private LogLocation resolveLogs(JobRecord r, Optional<ScontrolJob> sc, Extras extras) {
        long rawId = rawId(r, sc, extras);
        String node = sc.flatMap(ScontrolJob::batchHost).orElseGet(() -> FilenamePattern.firstHost(r.nodeList()));
        String workDir = r.workDir() != null ? r.workDir() : sc.flatMap(ScontrolJob::workDir).orElse(null);
        FilenamePattern.Context ctx = new FilenamePattern.Context(rawId,
                r.id().isArrayTask() ? r.id().arrayJobId() : null,
                r.id().isArrayTask() ? r.id().arrayTask() : null,
                r.name(), r.user() != null ? r.user() : sc.flatMap(ScontrolJob::userName).orElse(null), node,
                workDir, version().expandsArrayModulo());
        return LogPathResolver.resolve(r, ctx, sc, () -> batchScript(r.id()),
                Optional.ofNullable(extras.submitLine()).filter(s -> !s.isBlank()));
    }

    private static long rawId(JobRecord r, Optional<ScontrolJob> sc, Extras extras) {
        for (String candidate : new String[] {extras.jobIdRaw(), sc.map(ScontrolJob::jobId).orElse(null)}) {
            if (candidate != null && candidate.matches("\\d{1,12}")) {
                return Long.parseLong(candidate);
            }
        }
        return r.id().jobId();
    }

    @Override
    public Stream<JobRecord> jobs(JobQuery q) {
        List<String> fields = SacctFields.forWindow(version());
        List<String> args = new ArrayList<>(List.of("-X", "-P", "-o", String.join(",", fields)));
        List<String> window = window(q);
        args.addAll(window);
        Set<JobState> sacctStates = q.states().stream().filter(SACCT_STATES::contains)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(JobState.class)));
        if (!q.states().isEmpty() && sacctStates.size() == q.states().size()) {
            args.addAll(List.of("-s", sacctStates.stream().map(Enum::name).collect(Collectors.joining(","))));
        }
        List<JobRecord> jobs = new ArrayList<>();
        try (Stream<JobRecord> s = SacctReader.stream(new StringReader(slurm.sacct(args)))) {
            // sacct -s means "was in that state during the window"; slurmwise means the job's state now
            s.filter(j -> q.matchesState(j.state())).forEach(jobs::add);
        }
        Map<String, String> reasons = q.matchesState(JobState.PENDING) ? pendingReasons(q.user()) : Map.of();
        jobs.addAll(neverEligible(q, reasons, jobs, fields));
        if (jobs.isEmpty()) {
            return Stream.empty();
        }
        Map<String, DataSize> rss = jobs.stream().anyMatch(j -> j.state() != JobState.PENDING) ? stepMaxRss(window)
                : Map.of();
        List<JobRecord> out = new ArrayList<>(jobs.size());
        for (JobRecord j : jobs) {
            String key = j.id().toString();
            DataSize m = rss.get(key);
            String reason = j.state() == JobState.PENDING ? reasons.get(key) : null;
            if (m == null && reason == null) {
                out.add(j);
                continue;
            }
            JobRecord.Builder b = j.toBuilder();
            if (m != null && (j.maxRss() == null || m.compareTo(j.maxRss()) > 0)) {
                b.maxRss(m);
            }
            if (reason != null) {
                b.pendingReason(reason);
            }
            out.add(b.build());
        }
        out.sort(Comparator.comparing(JobRecord::submit, Comparator.nullsLast(Comparator.<LocalDateTime>naturalOrder()))
                .thenComparingLong(j -> j.id().jobId())
                .thenComparing(j -> j.id().arrayTask(), Comparator.nullsFirst(Comparator.<Long>naturalOrder())));
        return out.stream();
    }

    /**
     * Pending jobs that were never eligible (a dependency, a hold) are missing from sacct's -S/-E windows, which
     * select by eligible time; squeue knows them, and {@code sacct -j} shows them. They count as overlapping any
     * window that reaches their submission, as everything still pending does.
     */
    private List<JobRecord> neverEligible(JobQuery q, Map<String, String> reasons, List<JobRecord> listed,
                                          List<String> fields) {
        Set<String> known = listed.stream().map(j -> j.id().toString()).collect(Collectors.toSet());
        List<String> missing = reasons.keySet().stream().filter(id -> !known.contains(id)).toList();
        if (missing.isEmpty()) {
            return List.of();
        }
        // a pending array shows as 53_[1-3] in squeue; sacct -j takes the array id
        Set<String> query = new java.util.LinkedHashSet<>();
        for (String id : missing) {
            JobId.tryParse(id).ifPresent(j -> query.add(j.arraySpec() != null ? Long.toString(j.jobId()) : j.toString()));
        }
        List<JobRecord> found = new ArrayList<>();
        List<String> ids = new ArrayList<>(query);
        for (int i = 0; i < ids.size(); i += 500) {
            List<String> chunk = ids.subList(i, Math.min(ids.size(), i + 500));
            String out = slurm.sacct(List.of("-X", "-P", "-j", String.join(",", chunk), "-o", String.join(",", fields)));
            try (Stream<JobRecord> s = SacctReader.stream(new StringReader(out))) {
                s.filter(j -> j.state() == JobState.PENDING && missing.contains(j.id().toString()))
                        .filter(j -> q.user() == null || q.user().equals(j.user()))
                        .filter(j -> q.partition() == null || q.partition().equals(j.partition()))
                        .filter(j -> q.until() == null || j.submit() == null || !j.submit().isAfter(q.until()))
                        .forEach(found::add);
            }
        }
        return found;
    }

    private static List<String> window(JobQuery q) {
        LocalDateTime now = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        // sacct's default window starts at midnight today: always give both ends
        List<String> args = new ArrayList<>(List.of("-S", (q.since() != null ? q.since() : EPOCH).format(SACCT_TIME),
                "-E", (q.until() != null ? q.until() : now).format(SACCT_TIME)));
        if (q.user() != null) {
            args.addAll(List.of("-u", q.user()));
        } else if (q.allUsers()) {
            args.add("-a");
        }
        if (q.partition() != null) {
            args.addAll(List.of("-r", q.partition()));
        }
        return args;
    }

    /** MaxRSS lives only on step rows: one sacct over the same window, steps included, folded per job. */
    private Map<String, DataSize> stepMaxRss(List<String> window) {
        List<String> args = new ArrayList<>(List.of("-P", "-n", "-o", "JobID,MaxRSS"));
        args.addAll(window);
        Map<String, DataSize> max = new HashMap<>();
        for (String line : slurm.sacct(args).split("\\R")) {
            String sep = SacctReader.separator(line, false);
            int bar = line.indexOf(sep);
            if (bar <= 0) {
                continue;
            }
            Optional<JobId> id = JobId.tryParse(line.substring(0, bar));
            Optional<DataSize> v = DataSize.tryParse(line.substring(bar + sep.length()), DataSize.KIB);
            if (id.isPresent() && v.isPresent()) {
                max.merge(id.get().withoutStep().toString(), v.get(), (a, c) -> a.compareTo(c) >= 0 ? a : c);
            }
        }
        return max;
    }

    private Map<String, String> pendingReasons(String user) {
        try {
            return slurm.squeueReasons(List.of(), user);
        } catch (SlurmCommandException e) {
            if (e.controllerUnavailable()) {
                return Map.of(); // the list still stands without reasons; diagnose says why it cannot tell
            }
            throw e;
        }
    }

    /** Where the job's logs are and which step of the chain said so. */
    public LogLocation logLocation(JobRecord job) {
        LogLocation known = locations.get(job.id().toString());
        if (known != null) {
            return known;
        }
        JobRecord fresh = job(job.id()).orElseThrow(() -> new BackendException("job " + job.id()
                + " is not in the cluster's accounting: its log files cannot be found"));
        LogLocation loc = locations.get(fresh.id().toString());
        if (loc == null) {
            throw new BackendException("job " + job.id() + " is " + fresh.status() + ": it has no log files yet");
        }
        return loc;
    }

    @Override
    public LogTail logTail(JobRecord job, LogStream stream, int maxLines) {
        LogLocation loc;
        try {
            loc = logLocation(job);
        } catch (BackendException e) {
            return LogTail.unavailable(stream, null, e.getMessage());
        }
        String path = stream == LogStream.STDOUT ? loc.stdout() : loc.stderr();
        String claimed = stream == LogStream.STDOUT ? job.stdoutPath() : job.stderrPath();
        if (claimed != null && !claimed.equals(path)) {
            return LogTail.unavailable(stream, claimed, "refusing to read " + claimed + ": it is not the job's "
                    + stream.label() + " file (SLURM says " + path + "); slurmwise reads only a job's own logs");
        }
        if (path == null) {
            return LogTail.unavailable(stream, null, "no " + stream.label() + " path is known for job " + job.id());
        }
        Path p = Path.of(path);
        String from = " (path from " + loc.source().description() + ")";
        if (!p.isAbsolute()) {
            return LogTail.unavailable(stream, path, path + " is relative and the job's work dir is unknown" + from);
        }
        if (Files.exists(p) && !Files.isRegularFile(p)) {
            return LogTail.unavailable(stream, path, path + " is not a regular file" + (Files.isDirectory(p)
                    ? " but a directory" : " (a device, pipe or socket)") + "; slurmwise reads only log files" + from);
        }
        LogTail t = LogTails.readOwnedBy(p, stream, maxLines, job.user());
        if (t.problem() != null) {
            return new LogTail(t.stream(), t.path(), t.content(), t.firstLine(), t.fileSize(), t.problem() + from);
        }
        return t;
    }

    @Override
    public Optional<String> batchScript(JobRecord job) {
        return batchScript(job.id());
    }

    /** From slurmctld while it has the job, else from accounting (needs AccountingStoreFlags=job_script). */
    private Optional<String> batchScript(JobId id) {
        if (slurm.controllerFailure().isEmpty()) {
            try {
                Optional<String> s = slurm.scontrolBatchScript(id);
                if (s.isPresent()) {
                    return s;
                }
            } catch (SlurmCommandException e) {
                if (!e.controllerUnavailable()) {
                    throw e;
                }
            }
        }
        return slurm.sacctBatchScript(id);
    }

    @Override
    public List<Partition> partitions() {
        return SinfoParser.parse(slurm.sinfo(SinfoParser.FORMAT));
    }
}
