package io.slurmwise.backend;

import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;

import java.time.LocalDateTime;
import java.util.Set;

/**
 * Which jobs to list: a time window (jobs that were eligible, ran or ended in it), states, a user, a partition.
 *
 * @param user     one user; null with {@code allUsers=false} means the invoking user (as sacct does)
 * @param states   empty means every state
 */
public record JobQuery(LocalDateTime since, LocalDateTime until, Set<JobState> states, String user,
                       boolean allUsers, String partition) {

    public JobQuery {
        states = states == null ? Set.of() : Set.copyOf(states);
        if (since != null && until != null && until.isBefore(since)) {
            throw new IllegalArgumentException("the window ends (" + until + ") before it starts (" + since + ")");
        }
    }

    public static JobQuery window(LocalDateTime since, LocalDateTime until) {
        return new JobQuery(since, until, Set.of(), null, true, null);
    }

    public JobQuery withStates(Set<JobState> s) {
        return new JobQuery(since, until, s, user, allUsers, partition);
    }

    public JobQuery withUser(String u) {
        return new JobQuery(since, until, states, u, u == null && allUsers, partition);
    }

    public JobQuery withPartition(String p) {
        return new JobQuery(since, until, states, user, allUsers, p);
    }

    public boolean matchesState(JobState s) {
        return states.isEmpty() || states.contains(s);
    }

    /**
     * Whether a job's partition field holds the query's partition: a job pending on several ({@code cpu,long},
     * as {@code sbatch -p cpu,long} leaves it until it starts) may start in any of them, so it is in each one's
     * queue (the by-partition table keeps it under its whole field, as accounting wrote it).
     */
    private boolean inPartition(String jobPartition) {
        return inPartition(partition, jobPartition);
    }

    /** Whether a job's partition field holds {@code partition} (see {@link #covers}); any field when it is null. */
    public static boolean inPartition(String partition, String jobPartition) {
        if (partition == null || partition.equals(jobPartition)) {
            return true;
        }
        if (jobPartition == null || jobPartition.indexOf(',') < 0) {
            return false;
        }
        for (String p : jobPartition.split(",")) {
            if (partition.equals(p.strip())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a job belongs to this query: its state, user and partition match, it was submitted (else started)
     * before the window's end, and it ended after the window's start or has not ended (still running or pending
     * jobs overlap any window that reaches now). What the mock cluster and sacct exports select by.
     */
    public boolean covers(JobRecord j) {
        if (!matchesState(j.state())) {
            return false;
        }
        if (user != null && !user.equals(j.user())) {
            return false;
        }
        if (partition != null && !inPartition(j.partition())) {
            return false;
        }
        LocalDateTime first = j.submit() != null ? j.submit() : j.start();
        if (until != null && first != null && first.isAfter(until)) {
            return false;
        }
        return since == null || j.end() == null || !j.end().isBefore(since);
    }

    /**
     * The job as the window's end saw it: one that ended after the window was running there (started before its end)
     * or pending, with no end and no exit; how it ended belongs to the window it ended in. A job the window holds
     * whole, or a window open to now, leaves it as it is.
     */
    public JobRecord atWindowEnd(JobRecord j) {
        // ended after the window, or still running but started after it (an outside audit: a job running now that
        // started after --until counted as running in that window)
        boolean endedAfter = until != null && j.end() != null && j.end().isAfter(until);
        boolean startedAfter = until != null && j.end() == null && j.start() != null && !j.start().isBefore(until)
                && j.outcome() == io.slurmwise.job.Outcome.RUNNING;
        if (!endedAfter && !startedAfter) {
            return j;
        }
        boolean started = j.start() != null && j.start().isBefore(until);
        return j.toBuilder().status(io.slurmwise.job.JobStatus.of(started ? JobState.RUNNING : JobState.PENDING))
                .end(null).exitCode(null).elapsed(started ? java.time.Duration.between(j.start(), until)
                        : java.time.Duration.ZERO).build();
    }
}
