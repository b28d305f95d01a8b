package io.slurmwise.backend;

import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Read-only access to one SLURM cluster. Implementations never submit, cancel, requeue or modify anything.
 * Found through {@link BackendProvider} and {@link Backends}.
 *
 * <p>Methods throw {@link BackendException} (with what happened and what to do) when the cluster cannot answer.
 */
public interface SlurmBackend extends AutoCloseable {

    /** The provider name, e.g. {@code real} or {@code mock}. */
    String name();

    /**
     * What accounting knows of {@code id}, in one query: the job, the tasks of an array (an id without a task that
     * names an array job: {@code 4242} -> {@code 4242_1..4242_5}), or nothing. Backends decide with
     * {@link JobLookup#of}, so every backend draws the line between a job and an array the same way.
     */
    JobLookup lookup(JobId id);

    /** One job (array task, het component) by id; empty when the id names a whole array or nothing known. */
    default Optional<JobRecord> job(JobId id) {
        return lookup(id).fold(found -> Optional.of(found.job()), array -> Optional.empty(),
                missing -> Optional.empty());
    }

    /**
     * Jobs matching a query, streamed in accounting's order (roughly by submission) as the cluster answers: a
     * consumer that aggregates holds no more than one job at a time, whatever the window. Close the stream.
     */
    Stream<JobRecord> jobs(JobQuery query);

    /**
     * The last {@code maxLines} lines of the job's stdout or stderr. Never throws for a missing or unreadable
     * file: the tail says what went wrong ({@link LogTail#problem()}).
     */
    LogTail logTail(JobRecord job, LogStream stream, int maxLines);

    /** The job's batch script when SLURM or the work dir still has it. */
    Optional<String> batchScript(JobRecord job);

    /**
     * The cluster's reservations ({@code scontrol show reservation}): a maintenance window a pending job waits for.
     * Empty when there are none or the backend cannot say.
     */
    default List<io.slurmwise.job.Reservation> reservations() {
        return List.of();
    }

    /**
     * A user's associations and the QOSes each may use ({@code sacctmgr show assoc}): advice naming a QOS the user's
     * association does not list would be refused. Empty when the backend cannot say.
     */
    default List<io.slurmwise.job.Association> associations(String user) {
        return List.of();
    }

    /**
     * A queued job's dependency as slurmctld holds it ({@code afterok:1051(unfulfilled)}), which covers one given on
     * sbatch's command line; empty when the backend cannot say (the batch script's {@code --dependency} is read then).
     */
    default Optional<String> dependency(JobRecord job) {
        return Optional.empty();
    }

    /**
     * When a queued job may start at the earliest and whether it was requeued ({@code EligibleTime=}, {@code Restarts=}
     * of {@code scontrol show job}): a job waiting on {@code BeginTime} was given a --begin, or was requeued; empty when
     * the backend cannot say.
     */
    default Optional<EligibleTime> eligibleTime(JobRecord job) {
        return Optional.empty();
    }

    /** Partitions with their limits. */
    List<Partition> partitions();

    /**
     * The cluster's QOSes with their MaxWall ({@code sacctmgr show qos}); empty when this backend does not know them
     * (advice then says to check them).
     */
    default List<io.slurmwise.job.Qos> qos() {
        return List.of();
    }

    /**
     * An account's TRES-minute allocation and its use ({@code sshare}'s GrpTRESMins and GrpTRESRaw): a job of an account
     * that has used its allocation waits, whatever it asks. Empty when the backend cannot say or the account has no row.
     */
    default Optional<io.slurmwise.job.AccountUsage> accountUsage(String account) {
        return Optional.empty();
    }

    /**
     * Whether the cluster knows a user name (asked when a query for the user's jobs found none: a misspelt name is an
     * error, a user without jobs is not). The default asks this host's passwd file and name service (LDAP and SSSD
     * included), as sacct's own check of {@code -u} does.
     */
    default boolean knowsUser(String name) {
        return io.slurmwise.job.UserNames.isKnown(name);
    }

    /**
     * The user name of a uid SLURM printed (who cancelled a job: {@code CANCELLED by 1001}); empty when unknown.
     * The default knows root and this host's passwd file.
     */
    default Optional<String> userName(long uid) {
        return io.slurmwise.job.UserNames.local(uid);
    }

    @Override
    default void close() {
    }
}
