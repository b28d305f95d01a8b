package io.slurmwise.diagnose;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PendingReasonsTest {

    private final PendingReasons reasons = PendingReasons.bundled();

    @Test
    void saysWhetherAWaitingJobCanStartWithoutAChange() {
        assertThat(reasons.explain("Priority").startability()).isEqualTo(PendingReasons.Startability.WILL);
        assertThat(reasons.explain("DependencyNeverSatisfied").startability()).isEqualTo(PendingReasons.Startability.NEVER);
        assertThat(reasons.explain("PartitionTimeLimit").text()).contains("MaxTime");
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
        PendingReasons.Meaning maintenance = reasons.explain("ReqNodeNotAvail, Reserved for maintenance");
        assertThat(maintenance.startability()).isEqualTo(PendingReasons.Startability.MAY);
        assertThat(maintenance.text()).contains("shorter --time");
    }

    @Test
    void anUnlistedReasonIsQuotedAsSlurmGaveIt() {
        PendingReasons.Meaning m = reasons.explain("SomeFutureReason");
        assertThat(m.startability()).isEqualTo(PendingReasons.Startability.MAY);
        assertThat(m.text()).contains("'SomeFutureReason'");
    }
}
