package io.slurmwise.classify;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A workflow manager's report of how one of its tasks ended, read from the log of the head job that ran the manager:
 * Nextflow's {@code Process `TRIM (S03)` terminated with an error exit status (137)} and its retry note
 * (nextflow-io/nextflow TaskProcessor.groovy), Cromwell's {@code Job wf.align:NA:1 exited with return code 137 which
 * has not been declared as a valid return code.} (broadinstitute/cromwell KnownJobFailureException.scala) and its
 * {@code memory-retry-error-keys} notice (the catalog knowledge/workflow-messages.tsv). With a grid executor the task
 * ran as a job of its own: its memory is set in the workflow (Nextflow's {@code memory} directive, Cromwell's
 * {@code memory} runtime attribute), and the head job's record (its peak, its limit) says nothing about it.
 *
 * <pre>{@code
 * WorkflowTask.in(List.of("Process `TRIM (S03)` terminated with an error exit status (137)"));  // true
 * }</pre>
 */
public final class WorkflowTask {

    private static final Pattern TASK = Pattern.compile("(?i)\\bProcess `[^`]+` terminated with an error exit status \\(\\d+\\)"
            + "|\\bJob \\S+ exited with return code -?\\d+ which has not been declared"
            + "|memory-retry-error-keys.*\\bJob might have run out of memory");

    /** The task's name in such a report: Nextflow's process, Cromwell's job ({@code wf.align:NA:1}). */
    private static final Pattern NAME = Pattern.compile("(?i)\\bProcess `([^`]+)` terminated with an error exit status"
            + "|\\bJob (\\S+) exited with return code -?\\d+ which has not been declared"
            + "|\\bfor job `([^`]+)` contained one of the `memory-retry-error-keys");

    private WorkflowTask() {
    }

    /** Whether one of the lines is a workflow manager's report of its task's end. */
    public static boolean in(List<String> lines) {
        return lines != null && lines.stream().anyMatch(l -> l != null && TASK.matcher(l).find());
    }

    /** The name of the first task such a report names ({@code TRIM (S03)}), when one does. */
    public static java.util.Optional<String> task(List<String> lines) {
        for (String l : lines == null ? List.<String>of() : lines) {
            java.util.regex.Matcher m = l == null ? null : NAME.matcher(l);
            if (m != null && m.find()) {
                return java.util.Optional.of(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3));
            }
        }
        return java.util.Optional.empty();
    }
}
