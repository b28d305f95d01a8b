package io.slurmwise.job;

import org.junit.jupiter.api.Test;

import java.io.StringReader;

import static org.assertj.core.api.Assertions.assertThat;

/** SLURM's NO_VAL and INFINITE in numeric fields are unknown, never counts (an outside audit's fixture). */
class NoValTest {

    static final String HEADER = "JobID|State|Start|End|Elapsed|ReqMem|AllocCPUS|NNodes|AllocTRES|ReqTRES|ConsumedEnergyRaw";

    static JobRecord read(String row) {
        try (SacctReader r = SacctReader.open(new StringReader(HEADER + "\n" + row + "\n"))) {
            assertThat(r.hasNext()).isTrue();
            return r.next();
        }
    }

    @Test
    void aGpuCountOfNoValIsNoGpuCount() {
        JobRecord j = read("800003|FAILED|2026-10-10T10:00:00|2026-10-10T11:00:00|01:00:00|4G|8|1"
                + "|billing=8,cpu=8,gres/gpu=4294967294,mem=4G,node=1|billing=8,cpu=8,gres/gpu=1,mem=4G,node=1|");
        assertThat(j.gpus()).as("not 2^31-1").isZero();
        assertThat(j.gpuEquivalents()).isZero();
        assertThat(j.cpus()).isEqualTo(8);
        // a typed count stays when the untyped one is unknown
        JobRecord typed = read("1|FAILED|2026-10-10T10:00:00|2026-10-10T11:00:00|01:00:00|4G|8|1"
                + "|cpu=8,gres/gpu=4294967295,gres/gpu:a100=2,node=1||");
        assertThat(typed.gpus()).isEqualTo(2);
    }

    @Test
    void cpusNodesEnergyAndMemoryOfASentinelAreUnknown() {
        for (String v : new String[] {"4294967294", "4294967295", "-2", "-1", "18446744073709551614"}) {
            JobRecord j = read("2|FAILED|2026-10-10T10:00:00|2026-10-10T11:00:00|01:00:00|4G|" + v + "|" + v
                    + "|billing=8,cpu=" + v + ",mem=" + v + "M,node=" + v + "|cpu=8,mem=4G,node=1|" + v);
            assertThat(j.cpus()).as(v).isEqualTo(8); // from ReqTRES, as for a job that gives no AllocCPUS
            assertThat(j.nodes()).as(v).isEqualTo(1);
            assertThat(j.consumedEnergyJoules()).as(v).isNull();
            assertThat(j.memoryLimit()).as(v).contains(DataSize.ofGibibytes(4));
        }
        assertThat(read("3|FAILED|||01:00:00|4G|-8|1|cpu=-8|cpu=8|").cpus()).as("a negative count").isEqualTo(8);
        assertThat(read("4|COMPLETED|||01:00:00|4G|8|1|cpu=8||18446744073709551615").consumedEnergyJoules()).isNull();
        assertThat(read("5|COMPLETED|||01:00:00|4G|8|1|cpu=8||4294967294").consumedEnergyJoules()).isNull();
        assertThat(read("6|COMPLETED|||01:00:00|4G|8|1|cpu=8||4294967293").consumedEnergyJoules()).isEqualTo(4294967293L);
    }
}
