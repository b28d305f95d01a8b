package io.slurmwise.stats;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of {@link FleetStats} in the user's units: hours, kWh, kg CO2e, rates. Energy figures named
 * {@code ...Kwh}/{@code ...Co2Kg} are estimates from the {@link EnergyModel} (PUE applied); {@code measured...}
 * figures are what SLURM measured (ConsumedEnergy) on the jobs that have it, never added to the estimates.
 *
 * <pre>{@code
 * FleetReport r = stats.report();
 * r.total().failureRate();          // 0.1667: failed / ended jobs
 * r.total().wastedGpuHours();       // GPU-hours allocated to failed jobs
 * r.byPartition().get(0).key();     // the partition that wasted most energy
 * }</pre>
 *
 * @param since           start of the window (null when the query had none)
 * @param until           end of the window
 * @param records         job records aggregated
 * @param byKind          failed jobs by failure kind, most wasted energy first
 * @param byPartition     by partition, most wasted energy first
 * @param byUser          by user, most wasted energy first
 * @param byDay           by the day each job ended (running and pending jobs: the day they started or were submitted,
 *                        the window's first day when that was before it), every day from the first to the last
 * @param byCluster       by cluster (sacct's Cluster column), most wasted energy first; empty when no record names
 *                        one
 * @param topJobs         the most wasteful failed jobs; an array job is one entry with its task counts
 * @param arraysTruncated more array jobs than the limit: the least wasteful arrays' entries were dropped (totals
 *                        stay exact)
 * @param jobsWithoutCpus ended jobs that ran but whose record gives no CPU count (no AllocCPUS, NCPUS or TRES
 *                        cpu=): their CPU-hours count as 0, which every output says
 * @param failedWithoutHours failed jobs that held no GPU or CPU time (never started, or no elapsed time): in the
 *                        failure counts, but never among the top jobs, which rank what failures held
 * @param dataFrom        the earliest moment of the jobs counted, as the by-day rows date them (a job's end; one
 *                        still running: its start; pending: its submit); null without jobs
 * @param dataUntil       the latest moment of the jobs counted, by the same rule; null without jobs
 * @param implausibleRecords records left out because their times cannot be (an End before its Start, a Start before
 *                        2000 or decades before its End, an Elapsed longer than End - Start): not in any figure
 * @param firstImplausible the first of them (lowest job id), its id and why ({@code 4242 (End ... before Start ...)});
 *                        null when none
 */
public record FleetReport(LocalDateTime since, LocalDateTime until, long records, Breakdown total,
                          List<Breakdown> byKind, List<Breakdown> byPartition, List<Breakdown> byUser,
                          List<Breakdown> byDay, List<Breakdown> byCluster, List<TopEntry> topJobs,
                          Efficiency efficiency, EnergyModel energy,
                          boolean arraysTruncated, long jobsWithoutCpus, long failedWithoutHours,
                          LocalDateTime dataFrom, LocalDateTime dataUntil, long implausibleRecords,
                          String firstImplausible) {

    /**
     * What was left out because its times cannot be, for a report's footer: "2 implausible records left out (first:
     * 4242 (End ... before Start ...))"; null when none was.
     */
    public String implausibleNote() {
        return implausibleRecords == 0 ? null : implausibleRecords + " implausible record" + (implausibleRecords == 1
                ? "" : "s") + " left out (first: " + firstImplausible + ")";
    }

    /** Whether the records came from several clusters: then every output breaks the figures down by cluster. */
    public boolean severalClusters() {
        return byCluster.size() > 1;
    }

    /**
     * The start of the window the report covers: the query's, or where it had none (an export read whole) the
     * earliest moment of the jobs counted. Every output names this one.
     */
    public LocalDateTime coveredFrom() {
        return since != null ? since : dataFrom;
    }

    /** The end of the window the report covers: the query's, or where it had none the latest moment of its jobs. */
    public LocalDateTime coveredUntil() {
        return until != null ? until : dataUntil;
    }

    public FleetReport {
        byKind = List.copyOf(byKind);
        byPartition = List.copyOf(byPartition);
        byUser = List.copyOf(byUser);
        byDay = List.copyOf(byDay);
        byCluster = List.copyOf(byCluster);
        topJobs = List.copyOf(topJobs);
    }

    /**
     * One group of jobs. Wasted = allocated to failed jobs (elapsed x GPUs or CPUs); interrupted = cancelled or
     * preempted, apart; used = every ended job.
     *
     * @param measuredWastedKwh energy SLURM measured on the failed jobs that have a measurement, null when none has
     * @param neverStarted      ended jobs whose record says they never ran (a pending array cancelled, a job refused
     *                          in the queue): counted as ended, in the failure rate's denominator, with no hours
     * @param failedNeverStarted the failed ones among them (a DEADLINE or a refusal in the queue)
     */
    public record Breakdown(String key, long jobs, long completed, long failed, long cancelled, long preempted,
                            long pending, long running, long unknown,
                            double wastedGpuHours, double wastedCpuHours, double wastedKwh, double wastedCo2Kg,
                            Double measuredWastedKwh, long measuredWastedJobs,
                            double interruptedGpuHours, double interruptedCpuHours, double interruptedKwh,
                            double usedGpuHours, double usedCpuHours, double usedKwh,
                            Double measuredUsedKwh, long measuredUsedJobs, long neverStarted,
                            long failedNeverStarted) {

        /** Jobs with a final outcome: completed, failed, cancelled, preempted. */
        public long ended() {
            return completed + failed + cancelled + preempted;
        }

        /** Failed / ended jobs; null when no job ended. Cancelled and preempted jobs are not failures. */
        public Double failureRate() {
            return ended() == 0 ? null : failed / (double) ended();
        }

        public long interrupted() {
            return cancelled + preempted;
        }
    }

    /**
     * A wasteful failed job, or an array job summarised over its tasks.
     *
     * @param id       job id, or {@code 4242_[1-5]} for an array
     * @param cluster  the job's cluster when the report spans several (job ids repeat across clusters); else null
     * @param state    SLURM state of a plain job; for an array the states of its failed tasks, e.g. {@code FAILED}
     * @param kinds    failure kind -> failed tasks (one entry for a plain job)
     * @param tasks    for an array: outcome id -> tasks; empty for a plain job
     * @param elapsedSeconds elapsed time of a plain job; for an array the sum over its failed tasks
     */
    public record TopEntry(String id, String cluster, boolean array, String name, String user, String partition, String state,
                           Map<String, Long> kinds, Map<String, Long> tasks, long taskCount, long elapsedSeconds,
                           int gpus, int cpus, double wastedGpuHours, double wastedCpuHours, double wastedKwh,
                           double wastedCo2Kg, Double measuredKwh, LocalDateTime end) {
        public TopEntry {
            kinds = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(kinds));
            tasks = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tasks));
        }

        /** The job as people name it: its id, after its cluster when the report spans several ({@code b:4242_[1-5]}). */
        public String label() {
            return cluster == null ? id : cluster + ":" + id;
        }
    }

    /**
     * Efficiency of completed jobs, the waste that does not fail, by seff's formulas per job and summed over jobs (so
     * a big job weighs more than a small one); memory from MaxRSS, the largest task's peak (seff counts every task's:
     * x ntasks, since 24.05.5 TRESUsageInTot), so a job of many tasks per node reads low.
     *
     * @param cpuEfficiency    TotalCPU / (Elapsed x CPUs) over completed jobs with a TotalCPU; null when none
     * @param memoryEfficiency MaxRSS / memory limit (ReqMem) over completed jobs with both, weighted by run time (the
     *                         share of the reserved GB-hours used at peak); null when none
     * @param lowCpuJobs       jobs under {@link FleetStats#LOW_EFFICIENCY} CPU efficiency
     */
    public record Efficiency(long completedJobs, long cpuJobs, Double cpuEfficiency, double reservedCpuHours,
                             double unusedCpuHours, long lowCpuJobs, long memoryJobs, Double memoryEfficiency,
                             double reservedMemoryGbHours, double unusedMemoryGbHours, long lowMemoryJobs) {
    }
}
