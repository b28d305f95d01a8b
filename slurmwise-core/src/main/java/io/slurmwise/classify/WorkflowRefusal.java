package io.slurmwise.classify;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A workflow manager's report that sbatch refused a job it submitted: the refused request is that job's (a rule's
 * resources, a process's directives), not the request of the job whose log says so. The snakemake-executor-plugin-slurm
 * writes "SLURM sbatch failed. The error message was ..." and "SLURM job submission failed. The error message was
 * ..."; Nextflow "Failed to submit process to grid scheduler for execution".
 *
 * <pre>{@code
 * WorkflowRefusal.in(List.of("SLURM sbatch failed. The error message was sbatch: error: QOSMaxWallDurationPerJobLimit"));  // true
 * }</pre>
 */
public final class WorkflowRefusal {

    private static final Pattern REFUSED = Pattern.compile(
            "(?i)\\bSLURM (?:sbatch|job submission) failed\\. The error message was\\b|\\bFailed to submit process to grid scheduler\\b");

    private WorkflowRefusal() {
    }

    /** Whether one of the lines is such a report. */
    public static boolean in(List<String> lines) {
        return lines != null && lines.stream().anyMatch(l -> l != null && REFUSED.matcher(l).find());
    }
}
