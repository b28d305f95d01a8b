package io.slurmwise.backend.real;

/**
 * Where a job's stdout and stderr files are, and how slurmwise found out (shown with any problem reading them).
 *
 * @param stdout absolute path of the stdout file, or null when no step of the chain could tell
 * @param stderr absolute path of the stderr file; equal to {@code stdout} when the job merged them
 */
public record LogLocation(String stdout, String stderr, Source source) {

    /** The steps of the resolution chain, in the order they are tried. */
    public enum Source {
        SACCT("sacct StdOut/StdErr"),
        SCONTROL("scontrol show job"),
        SUBMIT_LINE("the sbatch command line (SubmitLine)"),
        BATCH_SCRIPT("#SBATCH --output/--error in the batch script"),
        DEFAULT("SLURM's default log name (no --output/--error in the batch script)"),
        DEFAULT_NO_SCRIPT("SLURM's default log name (the batch script is no longer available)");

        private final String description;

        Source(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    public boolean merged() {
        return stdout != null && stdout.equals(stderr);
    }
}
