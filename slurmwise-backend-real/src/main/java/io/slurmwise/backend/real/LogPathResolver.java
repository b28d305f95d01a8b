package io.slurmwise.backend.real;

import io.slurmwise.backend.real.LogLocation.Source;
import io.slurmwise.job.JobRecord;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Finds a job's log files, trying in order: sacct's StdOut/StdErr (23.02+), {@code scontrol show job} (while
 * slurmctld remembers the job), the sbatch command line and the batch script's {@code #SBATCH -o/-e/--output/
 * --error}, and finally SLURM's default {@code slurm-%j.out} ({@code slurm-%A_%a.out} for an array task) in the
 * work dir. Every pattern is expanded with {@link FilenamePattern}: 22.05's scontrol expands only some of them.
 *
 * <pre>{@code
 * LogLocation loc = LogPathResolver.resolve(job, ctx, scontrolJob, () -> batchScript, Optional.empty());
 * }</pre>
 */
public final class LogPathResolver {

    private LogPathResolver() {
    }

    /**
     * @param job         the record from sacct (its stdout/stderr paths are sacct's, where sacct has them)
     * @param ctx         what the filename patterns may refer to
     * @param scontrol    the job as slurmctld shows it, when it still does
     * @param batchScript the job's batch script, asked only when the steps before could not tell
     * @param submitLine  sacct's SubmitLine (23.02+), whose -o/-e override the script's
     */
    public static LogLocation resolve(JobRecord job, FilenamePattern.Context ctx, Optional<ScontrolJob> scontrol,
                                      Supplier<Optional<String>> batchScript, Optional<String> submitLine) {
        if (job.stdoutPath() != null && !job.stdoutPath().isBlank()) {
            return location(job.stdoutPath(), job.stderrPath(), ctx, Source.SACCT);
        }
        if (scontrol.isPresent() && scontrol.get().stdOut().isPresent()) {
            return location(scontrol.get().stdOut().get(), scontrol.get().stdErr().orElse(null), ctx, Source.SCONTROL);
        }
        SbatchOutputOptions fromLine = submitLine.map(SbatchOutputOptions::fromCommandLine)
                .orElse(SbatchOutputOptions.NONE);
        Optional<String> script = batchScript.get();
        SbatchOutputOptions fromScript = script.map(SbatchOutputOptions::fromScript).orElse(SbatchOutputOptions.NONE);
        SbatchOutputOptions opts = fromScript.overriddenBy(fromLine);
        String defaultName = job.id().isArrayTask() ? "slurm-%A_%a.out" : "slurm-%j.out";
        Source source = fromLine.output().isPresent() || fromLine.error().isPresent() ? Source.SUBMIT_LINE
                : fromScript.output().isPresent() || fromScript.error().isPresent() ? Source.BATCH_SCRIPT
                : script.isPresent() ? Source.DEFAULT : Source.DEFAULT_NO_SCRIPT;
        String out = opts.output().orElse(defaultName);
        // without --error, stderr goes to the --output file (or the default one)
        return location(out, opts.error().orElse(null), ctx, source);
    }

    private static LogLocation location(String out, String err, FilenamePattern.Context ctx, Source source) {
        String o = FilenamePattern.expand(out, ctx);
        String e = err == null || err.isBlank() ? o : FilenamePattern.expand(err, ctx);
        return new LogLocation(o, e, source);
    }
}
