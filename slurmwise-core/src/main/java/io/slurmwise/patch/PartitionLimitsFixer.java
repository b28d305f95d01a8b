package io.slurmwise.patch;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.job.SlurmTime;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code partition_limits}: the nearest request its partition can run, for a job asking for more than the partition
 * allows (it pends with PartitionTimeLimit for ever): {@code --time} down to the MaxTime, {@code --mem} down to what
 * one node has; the advice names the partitions that allow the original request.
 */
final class PartitionLimitsFixer implements Fixer {

    @Override
    public String name() {
        return "partition_limits";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        Step step = Step.none(s);
        Optional<Partition> part = cx.partition(s);
        if (part.isEmpty()) {
            return step.advise("The partition's limits are unknown here: compare the request with `sinfo -o \"%P %l %m\"`"
                    + " and `scontrol show partition <name>`.");
        }
        Partition p = part.get();
        JobRecord job = cx.job();
        Optional<Duration> asked = job.timeLimit().limit()
                .or(() -> s.option("time").flatMap(o -> SlurmTime.parseDuration(o.value())));
        Optional<Duration> max = TimeFixer.maxTime(p);
        if (asked.isPresent() && max.isPresent() && asked.get().compareTo(max.get()) > 0) {
            String cap = SlurmTime.format(max.get());
            boolean gpus = cx.usesGpus(s);
            List<String> longer = TimeFixer.longer(cx, p.name(), asked.get(), gpus);
            step = step.change(s.withOption("time", cap), "--time=" + cap + " (was " + SlurmTime.format(asked.get()) + ")",
                    "partition " + p.name() + " allows at most " + cap + " (MaxTime), so the job can never start as"
                            + " submitted; this is the longest run it can have there")
                    .advise("To keep " + SlurmTime.format(asked.get()) + ", submit to a partition that allows it"
                            + (longer.isEmpty() ? " (none of this cluster's partitions does" + (gpus ? " with GPUs" : "") + ")"
                            : ": " + String.join(", ", longer) + (gpus ? "; adjust --gres to that partition's GPU type" : ""))
                            + ", or checkpoint and continue in a second job (`--dependency=afterok:<jobid>`).");
        }
        Optional<DataSize> mem = s.option("mem").flatMap(o -> DataSize.tryParse(o.value()));
        if (mem.isPresent() && p.memoryPerNode() != null && mem.get().bytes() > p.memoryPerNode().bytes()) {
            String cap = MemoryFixer.size(MemoryFixer.roundDown(p.memoryPerNode().bytes()));
            step = step.change(step.script().withOption("mem", cap), "--mem=" + cap + " (was " + mem.get() + ")",
                    "a " + p.name() + " node has " + p.memoryPerNode() + ", so a larger --mem per node can never be"
                            + " met there");
        }
        return step;
    }
}
