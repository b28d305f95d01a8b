package io.slurmwise.job;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What of a queued job's request a partition cannot give, read from the record (no script needed). */
class PartitionFitTest {

    static final Partition LAB = new Partition("cpu", true, TimeLimit.parse("1-00:00:00"), 1, 2,
            DataSize.ofMebibytes(3900), "(null)", true);
    static final Partition A100 = new Partition("gpuA100x4", false, TimeLimit.parse("12:00:00"), 8, 64,
            DataSize.ofGibibytes(250), "gpu:a100:4", true);

    static JobRecord asking(String reqTres, String time) {
        return JobRecord.builder(JobId.parse("281")).reqTres(Tres.parse(reqTres)).timeLimit(TimeLimit.parse(time)).build();
    }

    @Test
    void theRealLabsCommandLineRequestsAreNamedWithWhatANodeHas() {
        // sbatch -c 16 on the lab's 2-CPU node (pends PartitionConfig; the request is in no script)
        assertThat(LAB.exceededBy(asking("billing=16,cpu=16,mem=100M,node=1", "00:10:00")))
                .containsExactly("16 CPUs per node (a cpu node has 2)");
        assertThat(LAB.exceededBy(asking("cpu=1,mem=100G,node=1", "2-00:00:00")))
                .containsExactly("100G per node (a cpu node has 3900M)", "time 2-00:00:00 (MaxTime 1-00:00:00)");
        assertThat(LAB.exceededBy(asking("cpu=2,mem=2G,node=2,gres/gpu=1", "00:10:00")))
                .containsExactly("1 GPU per node (cpu has none)", "2 nodes (cpu has 1)");
    }

    @Test
    void perNodeIsTheTotalSharedByTheNodes() {
        assertThat(A100.exceededBy(asking("cpu=128,mem=400G,node=2,gres/gpu:a100=8", "12:00:00"))).isEmpty();
        assertThat(A100.exceededBy(asking("cpu=128,mem=400G,node=1,gres/gpu:a100=8", "12:00:00")))
                .containsExactly("128 CPUs per node (a gpuA100x4 node has 64)", "400G per node (a gpuA100x4 node has 250G)",
                        "8 GPUs per node (a gpuA100x4 node has 4)");
        // 129 CPUs on 2 nodes: one of them holds 65, one more than a node has
        JobRecord odd = asking("cpu=129,mem=4G,node=2", "01:00:00");
        assertThat(odd.cpusPerNode()).isEqualTo(65);
        assertThat(A100.tooManyCpus(odd)).hasValue("65 CPUs per node (a gpuA100x4 node has 64)");
        assertThat(A100.tooManyCpus(asking("cpu=128,mem=4G,node=2", "01:00:00"))).isEmpty();
        // nothing known on either side: nothing said
        assertThat(new Partition("x", false, TimeLimit.UNKNOWN, 0, 0, null, "", true)
                .exceededBy(asking("cpu=4096,mem=9T,node=64", "UNLIMITED"))).isEmpty();
    }
}
