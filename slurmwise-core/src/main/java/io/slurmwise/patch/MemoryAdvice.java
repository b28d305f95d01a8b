package io.slurmwise.patch;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobRecord;

import java.util.Optional;

/**
 * How much memory to ask for after a job ran out of it: the one rule that both the memory patch
 * ({@code MemoryFixer}) and the oom note's fixes ({@code {{suggested_mem}}}) use, so the number a user reads in the
 * fixes is the number the patch writes.
 *
 * <ul>
 *   <li>the peak (MaxRSS) reached 90% of the limit: it was stopped there, not done, so 1.5x the peak;</li>
 *   <li>the peak stayed below the limit: a spike between samples hit it, so 1.5x the limit;</li>
 *   <li>no peak was measured: twice the limit;</li>
 *   <li>no limit is known: 1.5x the peak;</li>
 * </ul>
 * each rounded up to a size that suits it (256M steps below 4G ... 64G steps above 256G), and always more than the
 * limit.
 *
 * <pre>{@code
 * MemoryAdvice.perNode(job);   // Optional[48G] for a 32G job that peaked at 31.8G
 * }</pre>
 */
public final class MemoryAdvice {

    /** An OOM-killed job's peak is where it was stopped, not what it needed: ask for half again as much. */
    static final double HEADROOM = 1.5;

    private MemoryAdvice() {
    }

    /** What to ask for, and why, in words that name the unit ("per node", "per CPU"). */
    record Need(long bytes, String why) {
    }

    /** The rounded request for a limit and a peak measured in the same unit; empty when neither is known. */
    static Optional<Need> need(Optional<DataSize> limit, DataSize peak, String unit) {
        return need(limit, peak, unit, null);
    }

    /**
     * As above, with how the peak was reckoned when it is not MaxRSS itself ({@code "the largest task's MaxRSS 2G × 64
     * tasks per node"}: 2035's patch called 128G "the measured peak (MaxRSS)" beside a Memory line of 2G; an outside
     * audit).
     */
    static Optional<Need> need(Optional<DataSize> limit, DataSize peak, String unit, String reckoned) {
        String measured = reckoned == null ? "the measured peak (MaxRSS) " : "the peak (" + reckoned + ") ";
        String sampled = reckoned == null ? "the sampled peak (MaxRSS " : "the sampled peak (" + reckoned + ": ";
        long wanted;
        String why;
        if (limit.isEmpty()) {
            if (peak == null) {
                return Optional.empty();
            }
            wanted = (long) (peak.bytes() * HEADROOM);
            why = (reckoned == null ? "the measured peak (MaxRSS) was " : "the peak (" + reckoned + ") was ") + peak
                    + unit + "; 1.5x that, rounded up";
        } else if (peak != null && peak.bytes() >= REACHED * limit.get().bytes()) {
            wanted = (long) (peak.bytes() * HEADROOM);
            why = measured + peak + unit + " reached the " + limit.get() + " limit, where the job was"
                    + " killed, so it needs more than it showed: 1.5x the peak, rounded up";
        } else if (peak != null) {
            wanted = (long) (limit.get().bytes() * HEADROOM);
            why = sampled + peak + unit + ") stayed below the " + limit.get() + " limit, so a short"
                    + " spike the sampling missed hit it: 1.5x the limit, rounded up";
        } else {
            wanted = limit.get().bytes() * 2;
            why = "no peak was measured (no MaxRSS), so the " + limit.get() + " limit is doubled";
        }
        long rounded = roundUp(wanted);
        if (limit.isPresent() && rounded <= limit.get().bytes()) {
            rounded = roundUp(limit.get().bytes() + 1);
        }
        return Optional.of(new Need(rounded, why));
    }

    /** The share of the limit at which a measured peak counts as having reached it. */
    static final double REACHED = 0.9;

    /**
     * Whether the job's measured peak (MaxRSS) stayed below its memory limit per node, by the rule above (both known):
     * advice that holds only when memory was tight is not its advice.
     */
    public static boolean peakBelowLimit(JobRecord job) {
        return job.maxRss() != null && job.memoryPerNode().map(l -> job.maxRss().bytes() < REACHED * l.bytes()).orElse(false);
    }

    /** The {@code --mem} (per node) to ask for, from the job's record; empty when it knows neither limit nor peak. */
    public static Optional<DataSize> perNode(JobRecord job) {
        return need(job.memoryPerNode(), job.maxRss(), " per node").map(n -> new DataSize(n.bytes()));
    }

    /** The {@code --mem-per-cpu} that gives {@link #perNode} on each node, rounded up. */
    public static Optional<DataSize> perCpu(JobRecord job) {
        int cpusPerNode = Math.max(1, job.cpus() / job.nodes());
        return perNode(job).map(n -> new DataSize(roundUp((n.bytes() + cpusPerNode - 1) / cpusPerNode)));
    }

    /** As sbatch takes it: {@code 48G}, or {@code 768M} when not a whole number of G. */
    public static String sbatchSize(DataSize size) {
        long bytes = size.bytes();
        return bytes % DataSize.GIB == 0 ? bytes / DataSize.GIB + "G" : Math.max(1, bytes / DataSize.MIB) + "M";
    }

    /** Rounds up to a unit that suits the size: 256M below 4G, 1G below 16G, 4G below 64G, 16G below 256G, else 64G. */
    static long roundUp(long bytes) {
        long step = step(bytes);
        return (bytes + step - 1) / step * step;
    }

    /** Rounds down the same way, never below one step. */
    public static long roundDown(long bytes) {
        long step = step(bytes);
        return Math.max(step, bytes / step * step);
    }

    private static long step(long bytes) {
        if (bytes < 4 * DataSize.GIB) {
            return 256 * DataSize.MIB;
        }
        if (bytes < 16 * DataSize.GIB) {
            return DataSize.GIB;
        }
        if (bytes < 64 * DataSize.GIB) {
            return 4 * DataSize.GIB;
        }
        if (bytes < 256 * DataSize.GIB) {
            return 16 * DataSize.GIB;
        }
        return 64 * DataSize.GIB;
    }
}
