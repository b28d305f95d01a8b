package io.slurmwise.taxonomy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Placeholders in a note's text, filled from the job and the cluster when a diagnosis shows the note:
 * {@code {{max_time}}}, or {@code {{max_time|the partition's MaxTime}}} with the words shown when the fact is
 * unknown (a bare log, a cluster that does not say). Without such words an unknown fact shows as {@code <max_time>}.
 * The names are listed in knowledge/README.md; a note using another name does not load.
 *
 * <pre>{@code
 * Placeholders.fill("within {{max_time|the maximum}}", name -> Optional.of("12:00:00"));  // "within 12:00:00"
 * Placeholders.generic("within {{max_time|the maximum}}");                               // "within the maximum"
 * }</pre>
 */
public final class Placeholders {

    /** The facts a note may name. */
    public static final Set<String> NAMES = Set.of("job_id", "partition", "max_time", "longer_partitions",
            "gpu_model", "gpus_per_node", "gpu_partitions", "other_gpu_partitions", "peak_mem", "mem_limit",
            "suggested_mem", "suggested_mem_per_cpu", "node_mem", "work_dir", "java_heap", "shorter_time",
            "step_timeout", "more_nodes", "shard_gpus", "more_mem_partition", "more_time", "bigger_gpu_partitions", "tight_mem",
            "tight_mem_per_cpu", "queued_job_id", "canceller_uid", "batch_example", "oversized_alloc", "raised_java_heap", "workflow_task");

    /**
     * The facts of the job's run: a piece of advice that names one is about what the job did while it ran (a step
     * that hung, the peak it reached), which a job that never started did not do.
     */
    public static final Set<String> OF_THE_RUN = Set.of("step_timeout", "peak_mem");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([a-z_]+)\\s*(?:\\|([^}]*))?}}");

    private Placeholders() {
    }

    /** Whether {@code text} holds a placeholder. */
    public static boolean has(String text) {
        return text.contains("{{") && PLACEHOLDER.matcher(text).find();
    }

    /** Whether {@code text} names one of {@code names}. */
    public static boolean names(String text, Set<String> names) {
        if (!text.contains("{{")) {
            return false;
        }
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            if (names.contains(m.group(1))) {
                return true;
            }
        }
        return false;
    }

    /** The names used in {@code text} that are not {@link #NAMES}. */
    public static List<String> unknownNames(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            if (!NAMES.contains(m.group(1))) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** {@code text} with each placeholder replaced by its fact, or its fallback words when the fact is unknown. */
    public static String fill(String text, Function<String, Optional<String>> facts) {
        if (!text.contains("{{")) {
            return text;
        }
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String value = facts.apply(m.group(1))
                    .orElse(m.group(2) != null ? m.group(2).strip() : "<" + m.group(1) + ">");
            m.appendReplacement(sb, Matcher.quoteReplacement(value));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** {@code text} as shown without a job: every placeholder is its fallback words. */
    public static String generic(String text) {
        return fill(text, name -> Optional.empty());
    }
}
