package io.slurmwise.job;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** sshare's account rows read as an allocation and its use, and when a rerun under the account would wait. */
class AccountUsageTest {

    /** As SLURM's sshare prints it: account names indented by depth, each user's row under its account's. */
    static final String SHARE = """
            Account|User|GrpTRESMins|GrpTRESRaw|TRESRunMins
            root|||cpu=9384211,mem=61214630912,energy=0,node=201544,billing=14820553,fs/disk=0|cpu=0,billing=0
             genomics||billing=1500000|cpu=1503920,mem=6015680000,node=94020,billing=1503920,gres/gpu=0|cpu=0,billing=0
              genomics|bob||cpu=1503920,billing=1503920|cpu=0,billing=0
             llm-lab||billing=9000000,cpu=0|cpu=0,billing=6122480|cpu=0,billing=24576
             vision-lab|||cpu=231938,billing=2230518|cpu=0,billing=0
            """;

    @Test
    void anAccountsOwnRowIsItsAllocation() {
        AccountUsage g = AccountUsage.parse(SHARE, "genomics").orElseThrow();
        assertThat(g.limits()).isEqualTo(Map.of("billing", 1_500_000L));
        assertThat(g.used()).containsEntry("billing", 1_503_920L).containsEntry("gres/gpu", 0L);
        assertThat(g.spent()).contains("billing");
        assertThat(g.pendingReason()).contains("AssocGrpBillingMinutes");
        assertThat(g.describeSpent()).contains(
                "account genomics has used its allocation (billing 1,503,920 of 1,500,000 minutes, GrpTRESMins)");
        // a user's row is not the account's; an account without a row is unknown
        assertThat(AccountUsage.parse(SHARE, "bob")).isEmpty();
        assertThat(AccountUsage.parse(SHARE, "astro-ml")).isEmpty();
    }

    @Test
    void minutesLeftOrNoLimitIsNotSpent() {
        // vision-lab has no GrpTRESMins: whatever it used, nothing is spent
        assertThat(AccountUsage.parse(SHARE, "vision-lab").orElseThrow().spent()).isEmpty();
        // llm-lab: billing has minutes left, but cpu=0 is a limit its used and held minutes (0) have reached
        AccountUsage l = AccountUsage.parse(SHARE, "llm-lab").orElseThrow();
        assertThat(l.spent()).contains("cpu");
        assertThat(l.pendingReason()).contains("AssocGrpCPUMinutesLimit");
        // the running jobs' held minutes count: SLURM adds them to what was used
        AccountUsage held = new AccountUsage("a", Map.of("billing", 100L), Map.of("billing", 60L), Map.of("billing", 40L));
        assertThat(held.spent()).contains("billing");
        assertThat(new AccountUsage("a", Map.of("billing", 100L), Map.of("billing", 60L), Map.of()).spent()).isEmpty();
        assertThat(new AccountUsage("a", Map.of("gres/gpu", 1L), Map.of("gres/gpu", 5L), Map.of()).pendingReason())
                .contains("AssocGrpGRESMinutes");
    }

    /** A job waiting on GPU minutes is told of the spent GPU minutes, not of another spent limit as if it were its reason. */
    @Test
    void theSpentLimitSaidIsTheOneTheReasonNames() {
        AccountUsage both = new AccountUsage("astro", Map.of("billing", 600L, "gres/gpu", 24L),
                Map.of("billing", 611L, "gres/gpu", 25L), Map.of());
        assertThat(both.describeSpent()).hasValueSatisfying(d -> assertThat(d).contains("(billing 611 of 600 minutes"));
        assertThat(both.describeSpent("AssocGrpGRESMinutes")).hasValue("account astro has used its allocation"
                + " (gres/gpu 25 of 24 minutes, GrpTRESMins)");
        AccountUsage billing = new AccountUsage("astro", Map.of("billing", 600L), Map.of("billing", 611L), Map.of());
        assertThat(billing.describeSpent("AssocGrpGRESMinutes")).hasValueSatisfying(d -> assertThat(d)
                .startsWith("account astro has used its allocation (billing 611 of 600 minutes, GrpTRESMins);"
                        + " AssocGrpGRESMinutes names another limit"));
        assertThat(billing.describeSpent("AssocGrpBillingMinutes")).isEqualTo(billing.describeSpent());
    }

    @Test
    void anAnswerThatIsNoShareTableIsRefused() {
        assertThatThrownBy(() -> AccountUsage.parse("sshare: error: slurm_persist_conn_open_without_init: failed", "g"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 1 is no sshare row");
        assertThatThrownBy(() -> AccountUsage.parse("genomics||billing=lots|cpu=1|cpu=0", "genomics"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(AccountUsage.parse("", "genomics")).isEmpty();
    }
}
