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

    /** One job (array task, het component) by id; empty when the cluster has no record of it. */
    Optional<JobRecord> job(JobId id);

    /**
     * The tasks of an array job, for an id without a task ({@code 4242} -> {@code 4242_1..4242_5}); empty when
     * the id is not an array. The default scans nothing: backends that can look tasks up override it.
     */
    default List<JobRecord> arrayTasks(JobId arrayJobId) {
        return List.of();
    }

    /** Jobs matching a query, streamed in submission order; close the stream. */
    Stream<JobRecord> jobs(JobQuery query);

    /**
     * The last {@code maxLines} lines of the job's stdout or stderr. Never throws for a missing or unreadable
     * file: the tail says what went wrong ({@link LogTail#problem()}).
     */
    LogTail logTail(JobRecord job, LogStream stream, int maxLines);

    /** The job's batch script when SLURM or the work dir still has it. */
    Optional<String> batchScript(JobRecord job);

    /** Partitions with their limits. */
    List<Partition> partitions();

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
