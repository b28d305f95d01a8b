package io.slurmwise.backend;

import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JobQueryTest {

    static JobRecord in(String partition) {
        return JobRecord.builder(JobId.parse("801")).partition(partition).build();
    }

    @Test
    void aJobPendingOnSeveralPartitionsIsInEachOnesQueue() {
        JobQuery cpu = JobQuery.window(null, null).withPartition("cpu");
        assertThat(cpu.covers(in("cpu"))).isTrue();
        assertThat(cpu.covers(in("cpu,long"))).isTrue();
        assertThat(cpu.covers(in("long,cpu"))).isTrue();
        assertThat(cpu.covers(in("cpu2,long"))).isFalse();
        assertThat(cpu.covers(in("long"))).isFalse();
        assertThat(cpu.covers(in(null))).isFalse();
    }
}
