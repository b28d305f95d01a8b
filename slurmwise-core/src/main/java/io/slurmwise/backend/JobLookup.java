package io.slurmwise.backend;

import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * What a cluster's accounting knows of one job id, from one lookup ({@link SlurmBackend#lookup}): one job, the
 * tasks of an array (the id named a whole array), or nothing. {@link #of} is the one place that decides which,
 * for every backend.
 *
 * <pre>{@code
 * String shown = backend.lookup(JobId.parse("4242")).fold(
 *         found -> found.job().status().toString(),
 *         array -> array.tasks().size() + " tasks",
 *         missing -> "unknown");
 * }</pre>
 */
public sealed interface JobLookup permits JobLookup.Found, JobLookup.Array, JobLookup.Missing {

    /**
     * One job (or array task, het component), with what the backend adds to accounting (log paths, reasons).
     *
     * @param earlierRuns earlier records of the same id, oldest first: a requeued job's runs ({@code sacct -D}) or a
     *                    resized job's parts; each used its resources, the last ({@link #job}) is the job's outcome
     */
    record Found(JobRecord job, List<JobRecord> earlierRuns) implements JobLookup {
        public Found {
            Objects.requireNonNull(job, "job");
            earlierRuns = List.copyOf(earlierRuns);
        }

        public Found(JobRecord job) {
            this(job, List.of());
        }

        @Override
        public <T> T fold(Function<Found, T> found, Function<Array, T> array, Function<Missing, T> missing) {
            return found.apply(this);
        }
    }

    /**
     * The id named a whole array or heterogeneous job: its tasks (pending ranges like {@code 53_[4-5]} included) or
     * components ({@code 123+0}, {@code 123+1}), in accounting's order. {@link #open} completes one the way
     * {@link Found} jobs are, without asking accounting again.
     */
    record Array(JobId arrayJobId, List<JobRecord> tasks, UnaryOperator<JobRecord> details) implements JobLookup {
        public Array {
            Objects.requireNonNull(arrayJobId, "arrayJobId");
            tasks = List.copyOf(tasks);
            if (tasks.isEmpty()) {
                throw new IllegalArgumentException("array " + arrayJobId + " without tasks is Missing, not an Array");
            }
            Objects.requireNonNull(details, "details");
        }

        /** Whether the members are a heterogeneous job's components rather than an array's tasks. */
        public boolean heterogeneous() {
            return tasks.stream().allMatch(t -> t.id().hetOffset() != null);
        }

        /** The task with what the backend adds to a single job (log paths, the controller's view). */
        public JobRecord open(JobRecord task) {
            return details.apply(task);
        }

        @Override
        public <T> T fold(Function<Found, T> found, Function<Array, T> array, Function<Missing, T> missing) {
            return array.apply(this);
        }
    }

    /** Accounting has no record of the id. */
    record Missing(JobId id) implements JobLookup {
        @Override
        public <T> T fold(Function<Found, T> found, Function<Array, T> array, Function<Missing, T> missing) {
            return missing.apply(this);
        }
    }

    /** Exhaustive dispatch (Java 17 has no pattern switch): a new variant is a compile error in every caller. */
    <T> T fold(Function<Found, T> found, Function<Array, T> array, Function<Missing, T> missing);

    /**
     * Decides what {@code records} (accounting's answer to {@code sacct -j ID}, steps folded) mean for {@code id}:
     * the record with exactly that id (several: the last, with the earlier runs beside it, as sacct lists a
     * requeued job's runs in submit order); else, for an array task, the pending array's row whose tasks include it
     * ({@code 3000088_[50-99]} for {@code 3000088_50}: SLURM has no record of a task that has not started), and
     * nothing when the records are only other tasks of that array; else, for an id without task or step, the tasks
     * of that array or the components of that heterogeneous job when every record is one; else the one record there is (a raw id such as
     * 61 of task 53_2); nothing for no records.
     *
     * @param details completes a record into a found job (log paths, pending reason); applied only to the job
     *                found, or later to the array task a caller opens
     * @throws BackendException when several unrelated records answer (a heterogeneous job's components): the
     *                          message names them and says which id to ask for
     */
    static JobLookup of(JobId id, List<JobRecord> records, UnaryOperator<JobRecord> details) {
        if (records.isEmpty()) {
            return new Missing(id);
        }
        JobId wanted = id.withoutStep();
        List<JobRecord> exact = records.stream().filter(r -> r.id().equals(wanted)).toList();
        if (!exact.isEmpty()) {
            return new Found(details.apply(exact.get(exact.size() - 1)), exact.subList(0, exact.size() - 1));
        }
        if (wanted.isArrayTask()) {
            // a task that has not started has no record of its own: it is one of the pending array's row (3000088_50
            // in 3000088_[50-99]); another task of the array is not it
            long task = wanted.arrayTask();
            List<JobRecord> ranges = records.stream().filter(r -> r.id().arrayJobId() == wanted.jobId()
                    && r.id().coversTask(task)).toList();
            if (!ranges.isEmpty()) {
                return new Found(details.apply(ranges.get(ranges.size() - 1)));
            }
            if (records.stream().allMatch(r -> r.id().arrayJobId() == wanted.jobId())) {
                return new Missing(id);
            }
        }
        if (namesWholeArray(wanted) && records.stream().allMatch(r -> isMember(r.id(), wanted))) {
            return new Array(wanted, records, details);
        }
        if (records.size() == 1) {
            return new Found(details.apply(records.get(0)));
        }
        String listed = records.stream().limit(12).map(r -> r.id() + " " + r.status())
                .collect(Collectors.joining(", "));
        String failed = records.stream().filter(r -> r.outcome().diagnose()).findFirst()
                .map(r -> r.id().toString()).orElse(records.get(0).id().toString());
        throw new BackendException("job " + id + " has " + records.size() + " records in accounting (" + listed
                + (records.size() > 12 ? ", ..." : "") + "): name one of them, e.g. `slurmwise diagnose " + failed + "`");
    }

    /**
     * For a task id answered by its pending array's row ({@code 3000088_50} by {@code 3000088_[50-99]}), what that
     * means, in the words the CLI and the MCP tools use; empty for any other answer.
     */
    static java.util.Optional<String> pendingRangeNote(JobId asked, JobRecord found) {
        JobId wanted = asked.withoutStep();
        if (!wanted.isArrayTask() || found.id().equals(wanted) || !found.id().coversTask(wanted.arrayTask())) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("task " + wanted.arrayTask() + " of array " + wanted.jobId() + " has not started:"
                + " it is pending as part of " + found.id() + ", the one record SLURM keeps for the array's tasks that"
                + " have not started (" + found.id().taskCount() + " tasks)");
    }

    /**
     * The array to ask accounting about when a task has no record of its own ({@code sacct -j 3000088_50} lists no row
     * while the task waits in {@code 3000088_[50-99]}): the array id of a task id, else empty. Its records, given to
     * {@link #of}, find the pending row that holds the task.
     */
    static java.util.Optional<JobId> arrayToAsk(JobId id) {
        JobId wanted = id.withoutStep();
        return wanted.isArrayTask() ? java.util.Optional.of(new JobId(wanted.jobId(), null, null, null, null))
                : java.util.Optional.empty();
    }

    /** Whether {@code member} is a task or task range of array {@code whole}, or a component of het job {@code whole}. */
    static boolean isMember(JobId member, JobId whole) {
        return member.arrayJobId() == whole.jobId()
                && (member.isArrayTask() || member.arraySpec() != null || member.hetOffset() != null);
    }

    /** An id that may name a whole array or het job: a plain job id, no task, no task range, no het offset, no step. */
    static boolean namesWholeArray(JobId id) {
        return !id.isArrayTask() && id.arraySpec() == null && id.hetOffset() == null && !id.isStep();
    }
}
