package io.slurmwise.diagnose;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.BackendException;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.job.Association;
import io.slurmwise.testing.DelegatingBackend;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user's associations ({@code sacctmgr show assoc}) are asked once per diagnosis, by the patch and the fixes
 * together, and a read that fails leaves the advice unchecked, never wrong or missing.
 */
class AssociationReadTest {

    /** The fixture cluster whose association read is counted, and fails when {@code refused}. */
    static SlurmBackend counting(AtomicInteger reads, boolean refused) {
        return new DelegatingBackend() {
            @Override
            public List<Association> associations(String user) {
                reads.incrementAndGet();
                if (refused) {
                    throw new BackendException("sacctmgr show assoc failed: Access/permission denied");
                }
                return super.associations(user);
            }
        };
    }

    @Test
    void aDiagnosisAsksTheUsersAssociationsOnce() {
        AtomicInteger reads = new AtomicInteger();
        // 1016's patch moves it to partition long and QOS long, its fixes name QOSes, and its spent account's notice
        // names bob's other accounts (none): all three ask
        Diagnosis d = Slurmwise.builder().backend(counting(reads, false)).build().diagnose("1016");
        assertThat(d).isInstanceOf(Diagnosis.Failed.class);
        assertThat(reads).hasValue(1);
        // a pending job whose patch moves its QOS (1057), likewise
        reads.set(0);
        Slurmwise.builder().backend(counting(reads, false)).build().diagnose("1057");
        assertThat(reads).hasValue(1);
    }

    @Test
    void aRefusedReadLeavesTheAdviceUncheckedAndTheDiagnosisWhole() {
        AtomicInteger reads = new AtomicInteger();
        Diagnosis.Failed refused = (Diagnosis.Failed) Slurmwise.builder().backend(counting(reads, true)).build()
                .diagnose("1016");
        Diagnosis.Failed read = (Diagnosis.Failed) Slurmwise.builder().backend(counting(new AtomicInteger(), false))
                .build().diagnose("1016");
        assertThat(reads).hasValue(1);
        // unread, the spent account's notice says what it can: another account of the user's, if any
        assertThat(refused.notices()).anyMatch(n -> n.contains("another account of yours (`#SBATCH --account=<account>`)"));
        assertThat(read.notices()).anyMatch(n -> n.contains("bob has no other account"));
        assertThat(refused.finding().kindId()).isEqualTo(read.finding().kindId());
        assertThat(refused.patch().changes()).extracting(c -> c.sets()).isEqualTo(read.patch().changes().stream()
                .map(c -> c.sets()).toList());
        String advice = String.join("\n", refused.fixes().stream().map(f -> f.text() + "\n"
                + String.join("\n", f.items())).toList()) + String.join("\n", refused.patch().advice());
        assertThat(advice).doesNotContain("not one your account may use").doesNotContain("Yours with account");
        assertThat(refused.fixes()).hasSameSizeAs(read.fixes());
    }
}
