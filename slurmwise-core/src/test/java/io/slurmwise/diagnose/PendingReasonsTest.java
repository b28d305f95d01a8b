package io.slurmwise.diagnose;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PendingReasonsTest {

    private final PendingReasons reasons = PendingReasons.bundled();

    @Test
    void saysWhetherAWaitingJobCanStartWithoutAChange() {
        assertThat(reasons.explain("Priority").startability()).isEqualTo(PendingReasons.Startability.WILL);
        assertThat(reasons.explain("DependencyNeverSatisfied").startability()).isEqualTo(PendingReasons.Startability.NEVER);
        assertThat(reasons.explain("PartitionTimeLimit").text()).contains("MaxTime");
        // a held job starts once released, with nothing else changed (the real lab's --hold job read "Can start:
        // never, as submitted" beside "it starts only after scontrol release")
        assertThat(reasons.explain("JobHeldUser").startability()).isEqualTo(PendingReasons.Startability.HELD);
        assertThat(reasons.explain("JobHeldAdmin").startability()).isEqualTo(PendingReasons.Startability.HELD);
    }

    @Test
    void tellsTheReqNodeNotAvailFormsApart() {
        PendingReasons.Meaning next = reasons.explain("ReqNodeNotAvail, May be reserved for other job");
        assertThat(next.startability()).isEqualTo(PendingReasons.Startability.WILL);
        assertThat(next.text()).contains("next in line");
        PendingReasons.Meaning busy = reasons.explain(
                "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions");
        assertThat(busy.startability()).isEqualTo(PendingReasons.Startability.MAY);
        assertThat(busy.text()).contains("ordinary wait").contains("sinfo");
        // it starts when the maintenance is over, a time the reservation sets, with no change ("will": an outside
        // audit read "Can start: maybe, if the cluster changes" beside "it starts when the maintenance is over"), or
        // before it with a --time that ends in time; the words of a node that is down (a --nodelist keeping it
        // waiting) are not this job's (1052 has no --nodelist)
        for (String form : List.of("ReqNodeNotAvail, Reserved for maintenance", "ReqNodeNotAvail,_Reserved_for_maintenance")) {
            PendingReasons.Meaning maintenance = reasons.explain(form);
            assertThat(maintenance.startability()).isEqualTo(PendingReasons.Startability.WILL);
            assertThat(maintenance.text()).contains("maintenance is over").contains("--time that ends before")
                    .doesNotContain("--nodelist");
        }
        PendingReasons.Meaning down = reasons.explain("ReqNodeNotAvail, UnavailableNodes:node[01-02]");
        assertThat(down.startability()).isEqualTo(PendingReasons.Startability.MAY);
        assertThat(down.text()).contains("when the nodes return").doesNotContain("maintenance");
    }

    /** The job it waits for made nothing: rerun that one and repoint, not resubmit without it (an outside audit: 1021). */
    @Test
    void aDependencyThatCanNeverBeMetSaysToRerunTheParent() {
        PendingReasons.Meaning m = reasons.explain("DependencyNeverSatisfied");
        assertThat(m.startability()).isEqualTo(PendingReasons.Startability.NEVER);
        assertThat(m.text()).contains("fix and rerun that job").contains("Dependency=afterok:<new jobid>")
                .doesNotContain("without that dependency");
    }

    @Test
    void anUnlistedReasonIsQuotedAsSlurmGaveIt() {
        PendingReasons.Meaning m = reasons.explain("SomeFutureReason");
        assertThat(m.startability()).isEqualTo(PendingReasons.Startability.MAY);
        assertThat(m.text()).contains("'SomeFutureReason'");
    }
}
