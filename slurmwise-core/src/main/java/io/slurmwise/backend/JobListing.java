package io.slurmwise.backend;

import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.Outcome;
import io.slurmwise.job.Partition;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A list of jobs as people and models ask for it: newest first (or oldest), a job-name pattern, at most N, and
 * whether more matched. Shared by {@code slurmwise jobs} and the {@code list_jobs} tool. A state filter for failures
 * lists a COMPLETED job whose step failed too ({@link #inStates}). A partition or user that
 * the cluster does not know is an error that lists the known ones, rather than an empty list.
 *
 * <pre>{@code
 * JobListing.Result r = JobListing.list(backend, query, "train*", true, 20);
 * }</pre>
 */
public final class JobListing {

    /** @param matched how many jobs matched before the limit; {@code truncated} when more than were kept */
    public record Result(List<JobRecord> jobs, int matched, boolean truncated) {
        public Result {
            jobs = List.copyOf(jobs);
        }
    }

    /**
     * Newest first: by submit time (else start, else end), then by id, then a requeued job's runs (sacct -D repeats the
     * id and the submit time) by their own start and end, the latest (or the one still queued) first: a tie left the
     * order of the runs, and which one a limit kept, to chance (an outside audit: list_jobs with limit 3 and 4 named
     * different runs as the newest).
     */
    public static final Comparator<JobRecord> NEWEST_FIRST = Comparator
            .comparing(JobListing::when, Comparator.nullsLast(Comparator.reverseOrder()))
            .thenComparing(j -> j.id().jobId(), Comparator.reverseOrder())
            .thenComparing(j -> j.id().arrayTask() == null ? -1L : j.id().arrayTask(), Comparator.reverseOrder())
            .thenComparing(j -> j.id().hetOffset() == null ? -1 : j.id().hetOffset(), Comparator.reverseOrder())
            .thenComparing(JobRecord::start, Comparator.nullsFirst(Comparator.reverseOrder()))
            .thenComparing(JobRecord::end, Comparator.nullsFirst(Comparator.reverseOrder()));

    private JobListing() {
    }

    /**
     * @param namePattern a job-name glob ({@code train*}, {@code *sweep?}), case-insensitive; null for any
     * @param limit       at most this many jobs (the newest, or the oldest with {@code newestFirst=false})
     * @throws IllegalArgumentException for a partition or user the cluster does not know, naming the known ones
     */
    public static Result list(SlurmBackend backend, JobQuery query, String namePattern, boolean newestFirst, int limit) {
        checkPartition(backend, query.partition());
        Pattern name = namePattern == null ? null : glob(namePattern);
        Comparator<JobRecord> order = newestFirst ? NEWEST_FIRST : NEWEST_FIRST.reversed();
        // the first `limit` in order, kept as the jobs stream by: a window of any size holds only those
        PriorityQueue<JobRecord> kept = new PriorityQueue<>(order.reversed());
        int matched = 0;
        try (Stream<JobRecord> s = backend.jobs(askedOf(query))) {
            Iterator<JobRecord> it = s.iterator();
            while (it.hasNext()) {
                JobRecord j = it.next();
                if (!inStates(query, j) || (name != null && !name.matcher(j.name()).matches())) {
                    continue;
                }
                matched++;
                kept.add(j);
                if (kept.size() > limit) {
                    kept.poll();
                }
            }
        }
        if (matched == 0 && query.user() != null) {
            checkUser(backend, query);
        }
        List<JobRecord> out = new ArrayList<>(kept);
        out.sort(order);
        return new Result(out, matched, matched > out.size());
    }

    /**
     * What accounting is asked for: the query, and COMPLETED too when its states name a failure, since a COMPLETED
     * job whose step failed is one ({@link #inStates}); sacct selects by SLURM's state alone.
     */
    static JobQuery askedOf(JobQuery query) {
        Set<JobState> states = query.states();
        if (states.isEmpty() || states.contains(JobState.COMPLETED)
                || states.stream().noneMatch(st -> Outcome.of(st) == Outcome.FAILED)) {
            return query;
        }
        Set<JobState> asked = EnumSet.copyOf(states);
        asked.add(JobState.COMPLETED);
        return query.withStates(asked);
    }

    /**
     * Whether a job is in the states asked for, as a person filtering for failures means them: by SLURM's state, and a
     * COMPLETED job whose step failed ({@link JobRecord#failedStepOfCompleted}, a failure to every command:
     * {@link Outcome#of(JobRecord)}) also under FAILED and under its step's own state (OUT_OF_MEMORY for a step the
     * OOM killer ended), so {@code jobs --state FAILED} lists mock job 1062 as {@code jobs} counts it.
     */
    static boolean inStates(JobQuery query, JobRecord j) {
        if (query.matchesState(j.state())) {
            return true;
        }
        return j.failedStepOfCompleted().map(step -> query.states().contains(JobState.FAILED)
                || query.states().contains(step.status().state())).orElse(false);
    }

    /** @throws IllegalArgumentException when the cluster has no such partition (sinfo's list is named) */
    public static void checkPartition(SlurmBackend backend, String partition) {
        if (partition == null) {
            return;
        }
        List<Partition> known = backend.partitions();
        if (!known.isEmpty() && known.stream().noneMatch(p -> p.name().equals(partition))) {
            throw new IllegalArgumentException("no partition '" + partition + "' on this cluster; the partitions are: "
                    + String.join(", ", known.stream().map(Partition::name).toList()));
        }
    }

    /**
     * A user with no jobs in the window: an error when no job of the window is theirs and the backend does not know
     * the name ({@link SlurmBackend#knowsUser}), naming the users who do have jobs.
     *
     * @throws IllegalArgumentException for a name the cluster does not know
     */
    public static void checkUser(SlurmBackend backend, JobQuery q) {
        if (q.user() == null || backend.knowsUser(q.user())) {
            return;
        }
        TreeSet<String> users = new TreeSet<>();
        try (Stream<JobRecord> s = backend.jobs(new JobQuery(q.since(), q.until(), null, null, true, null))) {
            s.map(JobRecord::user).filter(Objects::nonNull).forEach(users::add);
        }
        if (!users.contains(q.user())) {
            throw new IllegalArgumentException("no user '" + q.user() + "' on this cluster" + (users.isEmpty()
                    ? "; check the name (a login name, as `sacct -u` takes it)"
                    : "; the users with jobs in this window are: " + String.join(", ", users)));
        }
    }

    /** A shell-style glob as a whole-name, case-insensitive pattern; a text without wildcards matches inside names. */
    static Pattern glob(String glob) {
        if (glob.indexOf('*') < 0 && glob.indexOf('?') < 0) {
            glob = "*" + glob + "*";
        }
        StringBuilder re = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    }

    private static LocalDateTime when(JobRecord j) {
        return j.submit() != null ? j.submit() : j.start() != null ? j.start() : j.end();
    }
}
