package io.slurmwise.job;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A user's associations as sacctmgr prints them, and the QOSes they allow with an account on a partition. */
class AssociationTest {

    /** The real SLURM 22.05 lab's answer for its user (setup.sh grants QOS short besides normal). */
    static final String LAB = "research|slurmtest||normal,short\nexhausted|slurmtest||normal\n";

    @Test
    void theLabsUserMayUseNormalAndShortWithItsAccount() {
        List<Association> rows = Association.parse(LAB);
        assertThat(rows).hasSize(2);
        assertThat(Association.allowedQos(rows, "slurmtest", "research", "cpu")).contains(Set.of("normal", "short"));
        assertThat(Association.allowedQos(rows, "slurmtest", "exhausted", "cpu")).contains(Set.of("normal"));
        // another account, another user: not known, so nothing is said to be refused
        assertThat(Association.allowedQos(rows, "slurmtest", "physics", "cpu")).isEmpty();
        assertThat(Association.allowedQos(rows, "bob", "research", "cpu")).isEmpty();
    }

    @Test
    void aPartitionsOwnAssociationAddsToTheAccountsAndAnEmptyQosIsUnknown() {
        String text = "Account|User|Partition|QOS\nlab|||normal\nlab|ann||normal\nlab|ann|gpu|gpu,Normal\n";
        List<Association> rows = Association.parse(text);
        assertThat(Association.allowedQos(rows, "ann", "lab", "gpu")).contains(Set.of("gpu", "normal"));
        assertThat(Association.allowedQos(rows, "ann", "lab", "cpu")).contains(Set.of("normal"));
        assertThat(Association.allowedQos(Association.parse("lab|ann||\n"), "ann", "lab", "cpu")).isEmpty();
    }

    @Test
    void anAnswerThatIsNoAssociationTableIsAnErrorNamingTheLine() {
        assertThatThrownBy(() -> Association.parse("research|slurmtest|normal\n"))
                .hasMessageContaining("line 1 is no association row (Account|User|Partition|QOS)");
        assertThatThrownBy(() -> Association.parse("sacctmgr: error: Problem talking to the database: Connection refused|x|y|z\n"))
                .hasMessageContaining("line 1 is no association row");
    }
}
