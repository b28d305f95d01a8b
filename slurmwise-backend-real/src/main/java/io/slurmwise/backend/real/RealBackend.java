package io.slurmwise.backend.real;

import io.slurmwise.backend.BackendException;
import io.slurmwise.backend.JobLookup;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.LogTails;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.Partition;
import io.slurmwise.job.SinfoParser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

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
    private final Consumer<String> notices;
    private final java.time.Duration logTimeout;
    private final Map<String, LogLocation> locations = new ConcurrentHashMap<>();

    private RealBackend(RealBackendConfig config, Consumer<String> notices, java.util.function.LongSupplier nanos) {
        this.slurm = new SlurmCommands(config);
        this.logTimeout = config.logTimeout();
        this.notices = notices == null ? m -> { } : notices;
        this.usage = new AgedReads<>(ACCOUNT_READ_AGE, nanos);
        this.associations = new AgedReads<>(ACCOUNT_READ_AGE, nanos);
    }

    public static RealBackend create(RealBackendConfig config) {
        return new RealBackend(config, null, System::nanoTime);
    }

    /** @param notices told what a query left out (rows sacct printed that could not be read), a line each */
    public static RealBackend create(RealBackendConfig config, Consumer<String> notices) {
        return new RealBackend(config, notices, System::nanoTime);
    }

    /** As {@link #create(RealBackendConfig, Consumer)}, its cached reads aged by {@code nanos} (tests). */
    static RealBackend create(RealBackendConfig config, Consumer<String> notices, java.util.function.LongSupplier nanos) {
        return new RealBackend(config, notices, nanos);
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
        List<JobRecord> found = new ArrayList<>();
        Map<String, Extras> extras = new HashMap<>();
        JobId wanted = id.withoutStep();
        // the job's own row, or for a task the pending row that holds it
        java.util.function.Predicate<JobRecord> itself = j -> j.id().equals(wanted) || wanted.isArrayTask()
                && j.id().arrayJobId() == wanted.jobId() && j.id().coversTask(wanted.arrayTask());
        read(id, itself, fields, found, extras);
        if (found.stream().noneMatch(itself)) {
            // sacct -j 3000088_50 lists no row for a task still waiting in 3000088_[50-99] (slurmdbd selects by the
            // task's own id, which the pending row does not have): the array's rows hold it
            Optional<JobId> array = JobLookup.arrayToAsk(id);
            if (array.isPresent()) {
                found.clear();
                extras.clear();
                read(array.get(), itself, fields, found, extras);
            }
        }
        return JobLookup.of(id, found, j -> enrich(j, extras.getOrDefault(j.id().toString(), Extras.NONE)));
    }

    /** One {@code sacct -j query}'s rows into {@code found}, their raw ids and submit lines into {@code extras}. */
    private void read(JobId query, java.util.function.Predicate<JobRecord> itself, List<String> fields,
                      List<JobRecord> found, Map<String, Extras> extras) {
        String unread;
        try (SacctStream r = SacctStream.open(slurm, slurm.startSacct(List.of("-P", "-j", query.withoutStep().toString(),
                "-o", String.join(",", fields))), JOB_ID_RAW, SUBMIT_LINE)) {
            while (r.hasNext()) {
                JobRecord j = r.next();
                found.add(j);
                extras.put(j.id().toString(), new Extras(r.kept().get(JOB_ID_RAW), r.kept().get(SUBMIT_LINE)));
            }
            unread = r.unreadMessage("job " + query);
        }
        if (unread != null) {
            if (found.stream().noneMatch(itself)) {
                // the job may be among the rows that could not be read: never call it unknown
                throw new SlurmCommandException(SlurmCommandException.Failure.GARBLED,
                        List.of("sacct", "-j", query.toString()), unread);
            }
            notices.accept(unread);
        }
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
        // a limit slurmctld cut to fit the --deadline is no override of the script's --time: only scontrol says so
        sc.flatMap(ScontrolJob::deadline).ifPresent(b::deadline);
        sc.flatMap(ScontrolJob::timeMin).ifPresent(b::timeMin);
        LogLocation loc = resolveLogs(r, sc, extras);
        locations.put(r.id().toString(), loc);
        return b.stdoutPath(loc.stdout()).stderrPath(loc.stderr()).build();
    }

    /**
     * {@code Dependency=} of {@code scontrol show job} (one given with {@code sbatch -d} on the command line is in no
     * script); empty once slurmctld forgot the job or when it has none.
     */
    @Override
    public Optional<String> dependency(JobRecord job) {
        if (slurm.controllerFailure().isPresent()) {
            return Optional.empty();
        }
        return scontrol(job.id()).flatMap(j -> j.field("Dependency"));
    }

    /**
     * {@code EligibleTime=} and {@code Restarts=} of {@code scontrol show job}: a --begin's time, or the hold slurmctld
     * puts on a job it requeued (both pend with Reason=BeginTime); empty once slurmctld forgot the job, or without a time.
     */
    @Override
    public Optional<io.slurmwise.backend.EligibleTime> eligibleTime(JobRecord job) {
        if (slurm.controllerFailure().isPresent()) {
            return Optional.empty();
        }
        return scontrol(job.id()).flatMap(j -> j.eligibleTime().map(at -> new io.slurmwise.backend.EligibleTime(at,
                j.restarts())));
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

    /**
     * The window's jobs as sacct prints them, read as they come: one {@code sacct -P} with the step rows (folded
     * into their jobs for MaxRSS), so nothing is held but the job at hand, whatever the window's size. Pending
     * reasons come from one squeue asked first; pending jobs that were never eligible (missing from sacct's window)
     * follow at the end. Close the stream: an early close kills sacct.
     */
    @Override
    public Stream<JobRecord> jobs(JobQuery q) {
        if (q.user() != null && !knowsUser(q.user())) {
            // sacct would refuse it ("Invalid user id", asking the same name service): a usage error, not a backend one
            throw new IllegalArgumentException("no user '" + q.user() + "' on this cluster (this host's name service"
                    + " does not know it, nor would sacct -u); check the name: a login name, as `id -un` prints it");
        }
        List<String> fields = SacctFields.forWindow(version());
        List<String> args = new ArrayList<>(List.of("-P", "-o", String.join(",", fields)));
        args.addAll(window(q));
        Set<JobState> sacctStates = q.states().stream().filter(SACCT_STATES::contains)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(JobState.class)));
        boolean bySacctState = !q.states().isEmpty() && sacctStates.size() == q.states().size();
        if (bySacctState) {
            args.addAll(List.of("-s", sacctStates.stream().map(Enum::name).collect(Collectors.joining(","))));
        }
        Map<String, String> reasons = q.matchesState(JobState.PENDING) ? pendingReasons(q.user()) : Map.of();
        // squeue's pending jobs that the window has not shown yet: only these are remembered, never the window
        Set<String> unseen = new HashSet<>(reasons.keySet());
        SacctStream rows = SacctStream.open(slurm, slurm.startSacct(args));
        Iterator<JobRecord> listed = new Iterator<>() {
            private JobRecord ahead;

            @Override
            public boolean hasNext() {
                while (ahead == null && rows.hasNext()) {
                    JobRecord j = rows.next();
                    String key = j.id().toString();
                    unseen.remove(key);
                    // sacct -s means "was in that state during the window"; slurmwise means the job's state now
                    if (q.matchesState(j.state())) {
                        String reason = j.state() == JobState.PENDING ? reasons.get(key) : null;
                        ahead = reason == null ? j : j.toBuilder().pendingReason(reason).build();
                    }
                }
                return ahead != null;
            }

            @Override
            public JobRecord next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                JobRecord j = ahead;
                ahead = null;
                return j;
            }
        };
        Stream<JobRecord> fromSacct = StreamSupport.stream(Spliterators.spliteratorUnknownSize(listed,
                Spliterator.ORDERED | Spliterator.NONNULL), false);
        // asked only once the window's rows are through: by then `unseen` holds exactly the never-eligible ones
        Stream<JobRecord> late = Stream.of(0).flatMap(x -> {
            String unread = rows.unreadMessage("the window");
            if (unread != null && rows.jobsRead() == 0) {
                throw new SlurmCommandException(SlurmCommandException.Failure.GARBLED, List.of("sacct"), unread);
            }
            if (unread != null) {
                notices.accept(unread);
            }
            List<JobRecord> more = new ArrayList<>(neverEligible(q, reasons, unseen, fields));
            if (!bySacctState) { // with -s sacct selected by state: the window's rows have them already
                more.addAll(cancelledBeforeEligible(q, fields));
            }
            return more.stream();
        });
        return Stream.concat(fromSacct, late).onClose(rows::close);
    }

    private static final String ELIGIBLE = "Eligible";

    /**
     * Jobs cancelled before they were ever eligible are missing from sacct's -S/-E windows too, which select by
     * eligible time, and squeue has forgotten them: a job slurmctld cancelled because its dependency failed
     * ({@code --kill-on-invalid-dep=yes}: CANCELLED, Reason=Dependency, EligibleTime Unknown; the real lab's
     * dep_cancelled was listed by no window), a held job cancelled, or one cancelled while its --begin time was still
     * ahead (Eligible after the window). With {@code -s CANCELLED} sacct selects by the state, so they are in its
     * answer; those eligible within the window were in the window's rows already.
     */
    private List<JobRecord> cancelledBeforeEligible(JobQuery q, List<String> fields) {
        if (!q.matchesState(JobState.CANCELLED)) {
            return List.of();
        }
        List<String> cols = new ArrayList<>(fields);
        cols.add(ELIGIBLE);
        List<String> args = new ArrayList<>(List.of("-X", "-P", "-s", "CANCELLED", "-o", String.join(",", cols)));
        args.addAll(window(q));
        LocalDateTime windowEnd = q.until() != null ? q.until() : LocalDateTime.now();
        List<JobRecord> found = new ArrayList<>();
        try (SacctStream s = SacctStream.open(slurm, slurm.startSacct(args), ELIGIBLE)) {
            while (s.hasNext()) {
                JobRecord j = s.next();
                String eligible = s.kept().get(ELIGIBLE);
                if (j.state() == JobState.CANCELLED && eligible != null && eligibleAfter(eligible, windowEnd)) {
                    found.add(j);
                }
            }
        }
        return found;
    }

    /** Whether sacct's Eligible says the job never became eligible by {@code end}: Unknown, or a later time. */
    static boolean eligibleAfter(String eligible, LocalDateTime end) {
        String e = eligible.strip();
        if (e.equals("Unknown")) {
            return true;
        }
        try {
            return LocalDateTime.parse(e).isAfter(end);
        } catch (java.time.format.DateTimeParseException x) {
            return false; // None or an unreadable time: the window's own rows decide
        }
    }

    /**
     * Pending jobs that were never eligible (a dependency, a hold) are missing from sacct's -S/-E windows, which
     * select by eligible time; squeue knows them, and {@code sacct -j} shows them. They count as overlapping any
     * window that reaches their submission, as everything still pending does.
     */
    private List<JobRecord> neverEligible(JobQuery q, Map<String, String> reasons, Set<String> unseen,
                                          List<String> fields) {
        List<String> missing = reasons.keySet().stream().filter(unseen::contains).toList();
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
            try (SacctStream s = SacctStream.open(slurm, slurm.startSacct(List.of("-X", "-P", "-j",
                    String.join(",", chunk), "-o", String.join(",", fields))))) {
                while (s.hasNext()) {
                    JobRecord j = s.next();
                    String key = j.id().toString();
                    if (j.state() == JobState.PENDING && missing.contains(key)
                            && (q.user() == null || q.user().equals(j.user()))
                            && (q.partition() == null || q.partition().equals(j.partition()))
                            && (q.until() == null || j.submit() == null || !j.submit().isAfter(q.until()))) {
                        String reason = reasons.get(key);
                        found.add(reason == null ? j : j.toBuilder().pendingReason(reason).build());
                    }
                }
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
        // a directory, device or pipe, a file of another user: refused where the file is read (LogTails.readOwnedBy)
        LogTail t = LogTails.readOwnedBy(p, stream, maxLines, job.user(), logTimeout);
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

    /**
     * sinfo's partitions; an answer without sinfo's header or with rows that are no partition (cut short, binary,
     * another program) is a {@link SlurmCommandException.Failure#GARBLED} error saying what came, never a short list.
     */
    @Override
    public List<Partition> partitions() {
        String out = slurm.sinfo(SinfoParser.FORMAT);
        SinfoParser.Read r = SinfoParser.read(out);
        if (r.header() && r.unreadLines() == 0) {
            return withScontrol(r.partitions());
        }
        String first = out.strip().lines().findFirst().orElse("");
        String what = !r.header()
                ? (first.isEmpty() ? "nothing" : "no header (first line: `" + io.slurmwise.job.Excerpt.of(first, 120) + "`)")
                : r.unreadLines() + " line" + (r.unreadLines() == 1 ? "" : "s") + " that are no partition ("
                + r.firstUnread() + ")";
        throw new SlurmCommandException(SlurmCommandException.Failure.GARBLED, List.of("sinfo", "-o",
                SinfoParser.FORMAT), "`sinfo -o " + SinfoParser.FORMAT + "` printed " + what + ": its answer was cut"
                + " short or is not SLURM's. Run `sinfo` on this node to see what it prints, and check that the sinfo on"
                + " PATH is SLURM's (`sinfo --version`)");
    }

    /**
     * The partitions with their own QOS and the QOSes they admit (AllowQos/DenyQos) from {@code scontrol show partition}
     * (sinfo has no field for them); when scontrol cannot say, the partitions as sinfo gave them (both unknown: the
     * advice reads the job's QOS alone and says to check what a partition admits).
     */
    private List<Partition> withScontrol(List<Partition> partitions) {
        try {
            return Partition.withScontrol(partitions, slurm.scontrolPartitions());
        } catch (SlurmCommandException e) {
            return partitions;
        }
    }

    /**
     * The reservations {@code scontrol show reservation} lists; an answer that is no reservation list is a
     * {@link SlurmCommandException.Failure#GARBLED} error naming the block (a pending job's answer then says the
     * window could not be read, nothing else changes).
     */
    @Override
    public List<io.slurmwise.job.Reservation> reservations() {
        String out = slurm.scontrolReservations();
        try {
            return io.slurmwise.job.Reservation.parse(out);
        } catch (IllegalArgumentException e) {
            throw new SlurmCommandException(SlurmCommandException.Failure.GARBLED, List.of("scontrol", "show",
                    "reservation"), "`scontrol show reservation` printed " + e.getMessage() + ": run it on this node to"
                    + " see what it prints");
        }
    }

    /**
     * How long an account's allocation read is reused. A watch over many jobs of one account, or a diagnosis that
     * asks twice, starts sshare once; a long-lived process (the MCP server, {@code watch}) reads again after this,
     * so an allocation renewed while it runs is not still said spent.
     */
    static final java.time.Duration ACCOUNT_READ_AGE = java.time.Duration.ofMinutes(5);

    /** Accounts asked about by this backend in the last {@link #ACCOUNT_READ_AGE}. */
    private final AgedReads<String, Optional<io.slurmwise.job.AccountUsage>> usage;

    /** Users asked about by this backend in the last {@link #ACCOUNT_READ_AGE}. */
    private final AgedReads<String, List<io.slurmwise.job.Association>> associations;

    /**
     * The account's row of {@code sshare -n -P -o Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins -A <account>},
     * read again once the last read is older than {@link #ACCOUNT_READ_AGE}; an answer that is no such table is a
     * {@link SlurmCommandException.Failure#GARBLED} error saying what came.
     */
    @Override
    public Optional<io.slurmwise.job.AccountUsage> accountUsage(String account) {
        if (account == null || !Allowlist.allows(SlurmTool.SSHARE, Allowlist.sshareUsage(account.strip()))) {
            return Optional.empty();
        }
        return usage.get(account.strip(), name -> {
            try {
                return io.slurmwise.job.AccountUsage.parse(slurm.shares(name), name);
            } catch (IllegalArgumentException e) {
                throw garbled(SlurmTool.SSHARE, Allowlist.sshareUsage(name), "no share table", e);
            }
        });
    }

    /**
     * The user's rows of {@code sacctmgr -n -P show assoc where user=<user> format=Account,User,Partition,QOS}, read
     * again once the last read is older than {@link #ACCOUNT_READ_AGE} (a QOS granted while the MCP server runs); an
     * answer that is no such table is a {@link SlurmCommandException.Failure#GARBLED} error saying what came.
     */
    @Override
    public List<io.slurmwise.job.Association> associations(String user) {
        if (user == null || !Allowlist.allows(SlurmTool.SACCTMGR, Allowlist.sacctmgrAssociations(user.strip()))) {
            return List.of();
        }
        return associations.get(user.strip(), name -> {
            try {
                return io.slurmwise.job.Association.parse(slurm.associations(name)).stream()
                        .filter(a -> a.user().equals(name)).toList();
            } catch (IllegalArgumentException e) {
                throw garbled(SlurmTool.SACCTMGR, Allowlist.sacctmgrAssociations(name), "no association table", e);
            }
        });
    }

    /** A command's answer that is not what SLURM's command prints: what came, and how to look. */
    private static SlurmCommandException garbled(SlurmTool tool, List<String> args, String what,
                                                 IllegalArgumentException e) {
        return new SlurmCommandException(SlurmCommandException.Failure.GARBLED, java.util.stream.Stream.concat(
                java.util.stream.Stream.of(tool.executable()), args.stream()).toList(), "`" + tool.executable() + " "
                + String.join(" ", args) + "` printed " + what + " (" + e.getMessage() + "). Run it on this node to see"
                + " what it prints, and check that the " + tool.executable() + " on PATH is SLURM's (`"
                + tool.executable() + " --version`)");
    }

    /**
     * sacctmgr's QOSes and their MaxWall; an answer that is no QOS table is a
     * {@link SlurmCommandException.Failure#GARBLED} error saying what came, never a short list.
     */
    @Override
    public List<io.slurmwise.job.Qos> qos() {
        String out = slurm.qos();
        try {
            return io.slurmwise.job.Qos.parse(out);
        } catch (IllegalArgumentException e) {
            throw garbled(SlurmTool.SACCTMGR, Allowlist.SACCTMGR_QOS, "no QOS table", e);
        }
    }
}
