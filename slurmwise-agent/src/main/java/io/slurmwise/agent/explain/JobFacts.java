package io.slurmwise.agent.explain;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobRecord;
import io.slurmwise.patch.HostList;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a job's record says that an answer may state in a role of its own: how long it ran and its time limit, its
 * memory peak and limits, the partition and nodes it ran on. {@link ExplanationGuard} checks an answer's facts against
 * them ({@link FactClaims}); an explanation reads them from the {@link JobRecord}, a chat from the diagnosis JSON its
 * tools return. A field the source does not give is null (or empty), and its checks do not run.
 *
 * @param memoryLimits the job's memory limit in all, per node and per CPU (as a per-CPU request states it: "a task
 *                     peaked at 1023.6M against its 1G per CPU" of a job of 512G on 512 CPUs)
 * @param nodes        the nodes it ran on, lower case, each one (a host list expanded)
 */
public record JobFacts(Duration elapsed, Duration limit, DataSize peak, List<DataSize> memoryLimits, String partition,
                       Set<String> nodes) {

    /** No record: only the material's own checks run. */
    public static final JobFacts NONE = new JobFacts(null, null, null, List.of(), null, Set.of());

    public JobFacts {
        memoryLimits = List.copyOf(memoryLimits);
        nodes = Set.copyOf(nodes);
    }

    /** The facts of a job's record, or {@link #NONE} without one. */
    public static JobFacts of(JobRecord job) {
        if (job == null) {
            return NONE;
        }
        return of(job.elapsed(), job.timeLimit().limit().orElse(null), job.optMaxRss().orElse(null),
                job.memoryLimit().orElse(null), job.nodes(), job.cpus(), job.partition(), job.nodeList());
    }

    /**
     * The facts from the record's fields as they are given.
     *
     * @param memoryLimit the job's memory limit in all, or null
     * @param nodeCount   how many nodes it ran on (its limit per node is the limit over them), 0 when unknown
     * @param cpuCount    how many CPUs it had in all (its limit per CPU is the limit over them), 0 when unknown
     * @param nodeList    SLURM's node list ({@code cn[061-062]}), or null
     */
    public static JobFacts of(Duration elapsed, Duration limit, DataSize peak, DataSize memoryLimit, int nodeCount,
                              int cpuCount, String partition, String nodeList) {
        List<DataSize> limits = new ArrayList<>();
        if (memoryLimit != null && memoryLimit.bytes() > 0) {
            limits.add(memoryLimit);
            if (nodeCount > 1) {
                limits.add(new DataSize(memoryLimit.bytes() / nodeCount));
            }
            if (cpuCount > 1) {
                limits.add(new DataSize(memoryLimit.bytes() / cpuCount));
            }
        }
        Set<String> nodes = new HashSet<>();
        if (nodeList != null) {
            HostList.expand(nodeList).forEach(n -> nodes.add(n.toLowerCase(Locale.ROOT)));
        }
        return new JobFacts(elapsed, limit, peak, limits, partition, nodes);
    }
}
