package io.slurmwise.diagnose;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.job.JobRecord;
import io.slurmwise.testing.DelegatingBackend;
import io.slurmwise.testing.FixtureCluster;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** What a pending job waits on: the dependency slurmctld holds comes before the script's (a command-line -d). */
class WaitingOnTest {

    /** The fixture cluster, with no batch script at hand and slurmctld holding {@code dependency} for every job. */
    static SlurmBackend holding(String dependency) {
        return new DelegatingBackend() {
            @Override
            public Optional<String> batchScript(JobRecord j) { return Optional.empty(); }
            @Override
            public Optional<String> dependency(JobRecord j) { return Optional.ofNullable(dependency); }
        };
    }

    static String meaning(SlurmBackend b, String id) {
        Diagnosis d = Slurmwise.builder().backend(b).build().diagnose(id);
        return ((Diagnosis.StatusOnly) d).pending().meaning();
    }

    @Test
    void theDependencySlurmctldHoldsNamesTheJobsWaitedOn() {
        // 1053 waits on Dependency; its script is not at hand, as for a job given -d on sbatch's command line
        assertThat(meaning(holding("afterok:1051(unfulfilled),afterany:1003(failed)"), "1053"))
                .contains("it depends on job 1051 (afterok), which is RUNNING; job 1003 (afterany), which is FAILED");
        // slurmctld says nothing and there is no script: the reason stands alone
        assertThat(meaning(holding(null), "1053")).isEqualTo("waiting for the jobs it depends on to finish");
        // a singleton or an array's every task is no job to look up, and breaks nothing
        assertThat(meaning(holding("singleton,afterok:1051_*"), "1053")).isEqualTo("waiting for the jobs it depends on to finish");
    }

    /**
     * A job that can never start says what of its request its partition or QOS cannot give, after what the reason says
     * and before what to do (it read as advice when it came last; an outside audit).
     */
    @Test
    void aRequestBeyondThePartitionOrQosIsSaidBeforeWhatToDo() {
        Slurmwise sw = Slurmwise.builder().backend(new FixtureCluster()).build();
        assertThat(((Diagnosis.StatusOnly) sw.diagnose("1056")).pending().meaning())
                .startsWith("it asks for more than any node of the partition has (CPUs, memory, GPUs, features): 192 CPUs"
                        + " per node (a cpu node has 128); resubmit");
        assertThat(((Diagnosis.StatusOnly) sw.diagnose("1057")).pending().meaning())
                .contains("(wall time, CPUs, GPUs, nodes): time 1-12:00:00 (QOS gpu MaxWall 1-00:00:00); resubmit");
        // waiting on an account's minutes: what sshare says of them (the mock's climate-model has used its billing)
        assertThat(((Diagnosis.StatusOnly) sw.diagnose("1050")).pending().meaning())
                .contains("is used up: account climate-model has used its allocation (billing ").contains(" minutes,"
                        + " GrpTRESMins); ask");
        assertThat(DiagnosisWorkflow.withFacts("no clause to cut", List.of("a", "b"))).isEqualTo("no clause to cut: a, b");
        assertThat(DiagnosisWorkflow.withFacts("x; y", List.of())).isEqualTo("x; y");
    }
}
