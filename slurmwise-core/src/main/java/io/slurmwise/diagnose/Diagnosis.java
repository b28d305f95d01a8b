package io.slurmwise.diagnose;

import io.slurmwise.job.JobId;

import java.util.function.Function;

/**
 * The answer for one job: it does not exist, it has a status but no failure to explain, or it failed and here
 * is why and what to change.
 */
public sealed interface Diagnosis permits Diagnosis.NotFound, Diagnosis.StatusOnly, Diagnosis.Failed {

    JobId jobId();

    /**
     * The one way to act on what kind of answer this is: exactly one function runs. A new kind of answer adds a
     * parameter, so every caller that must handle it fails to compile until it does (an {@code instanceof} chain
     * would skip it silently).
     *
     * <pre>{@code
     * String line = d.fold(nf -> "no such job", so -> so.summary(), f -> f.finding().kindId());
     * }</pre>
     */
    <R> R fold(Function<? super NotFound, ? extends R> notFound, Function<? super StatusOnly, ? extends R> statusOnly,
               Function<? super Failed, ? extends R> failed);

    /** The cluster has no record of the job. */
    record NotFound(JobId jobId, String message) implements Diagnosis {
        @Override
        public <R> R fold(Function<? super NotFound, ? extends R> notFound,
                          Function<? super StatusOnly, ? extends R> statusOnly, Function<? super Failed, ? extends R> failed) {
            return notFound.apply(this);
        }
    }

    /** Running, pending or completed: a status line; for a pending job, why it waits and whether it can start. */
    record StatusOnly(io.slurmwise.job.JobRecord job, String summary, PendingInfo pending) implements Diagnosis {
        @Override
        public JobId jobId() {
            return job.id();
        }

        public java.util.Optional<PendingInfo> optPending() {
            return java.util.Optional.ofNullable(pending);
        }

        @Override
        public <R> R fold(Function<? super NotFound, ? extends R> notFound,
                          Function<? super StatusOnly, ? extends R> statusOnly, Function<? super Failed, ? extends R> failed) {
            return statusOnly.apply(this);
        }
    }

    /**
     * A failed job: the rules' finding, the fix notes retrieved for it, an explanation in words, and a suggested
     * patch of its batch script (a unified diff, never applied).
     *
     * @param method  how the answer was made, e.g. {@code rules} or {@code rules + kb}
     * @param notices things the user should know about how it was made (a log that could not be read...)
     * @param patch   the suggested sbatch change, or why there is none
     */
    record Failed(io.slurmwise.job.JobRecord job, io.slurmwise.classify.Finding finding,
                  java.util.List<io.slurmwise.backend.LogTail> logs, java.util.List<FixNote> fixes,
                  Explanation explanation, String method, java.util.List<String> notices,
                  io.slurmwise.patch.Patch patch) implements Diagnosis {
        public Failed {
            logs = java.util.List.copyOf(logs);
            fixes = java.util.List.copyOf(fixes);
            notices = java.util.List.copyOf(notices);
            patch = patch != null ? patch : new io.slurmwise.patch.Patch.NotSuggested("no patch was computed",
                    java.util.List.of(), java.util.List.of());
        }

        /** A diagnosis without a patch step (adapters that build their own). */
        public Failed(io.slurmwise.job.JobRecord job, io.slurmwise.classify.Finding finding,
                      java.util.List<io.slurmwise.backend.LogTail> logs, java.util.List<FixNote> fixes,
                      Explanation explanation, String method, java.util.List<String> notices) {
            this(job, finding, logs, fixes, explanation, method, notices, null);
        }

        @Override
        public JobId jobId() {
            return job.id();
        }

        @Override
        public <R> R fold(Function<? super NotFound, ? extends R> notFound,
                          Function<? super StatusOnly, ? extends R> statusOnly, Function<? super Failed, ? extends R> failed) {
            return failed.apply(this);
        }
    }
}
