package io.slurmwise.stats;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobStatus;
import io.slurmwise.job.MemoryRequest;
import io.slurmwise.job.Tres;

import java.time.Duration;
import java.time.LocalDateTime;

/** Small job records for stats tests. */
final class Jobs {

    static final LocalDateTime T0 = LocalDateTime.of(2026, 11, 1, 0, 0);

    private Jobs() {
    }

    /** An ended job: {@code hours} of {@code cpus} CPUs and {@code gpus} GPUs of {@code model}, ending at T0 + endHour. */
    static JobRecord.Builder job(String id, String state, String partition, String user, int cpus, int gpus, String model,
                                 double hours, double endHour) {
        String tres = "cpu=" + cpus + ",mem=" + (4 * cpus) + "G,node=1"
                + (gpus > 0 ? ",gres/gpu" + (model == null ? "" : ":" + model) + "=" + gpus : "");
        Duration elapsed = Duration.ofSeconds(Math.round(hours * 3600));
        LocalDateTime end = T0.plusSeconds(Math.round(endHour * 3600));
        return JobRecord.builder(JobId.parse(id)).name("job" + id).user(user).partition(partition)
                .status(JobStatus.parse(state)).exitCode(ExitCode.parse(state.equals("COMPLETED") ? "0:0" : "1:0"))
                .allocCpus(cpus).allocTres(Tres.parse(tres)).elapsed(elapsed).start(end.minus(elapsed)).end(end)
                .submit(end.minus(elapsed).minusMinutes(5))
                .reqMem(MemoryRequest.tryParse((4 * cpus) + "G").orElseThrow());
    }

    static JobRecord cpuJob(String id, String state, double hours, double endHour) {
        return job(id, state, "cpu", "ann", 8, 0, null, hours, endHour).build();
    }

    static DataSize gib(double g) {
        return DataSize.ofGibibytes(g);
    }
}
