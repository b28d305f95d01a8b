package io.slurmwise.agent.explain;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A partition named in prose ("on the long partition") or a node as where the job was, against the partition and
 * nodes it ran on; the ordinary words before "partition", the proposals and the advice about a node are no such claim.
 */
class FactClaimsTest {

    /** A job of partition gpu, whose patch proposes long; the notes name long and largemem with their MaxTime. */
    private static final JobFacts GPU_JOB = JobFacts.of(Duration.ofMinutes(41), Duration.ofHours(8), null, null, 1, 8,
            "gpu", "g012");
    private static final String MATERIAL = "partition gpu, node g012. Patch: --partition=long (was gpu)."
            + " Partitions with a longer maximum: long (MaxTime 7-00:00:00), largemem (MaxTime UNLIMITED);"
            + " partition h100x8 allows 2 days. Another job of the conversation ran on node g013.";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            It hit its 08:00:00 limit on the long partition.               | partition long, but it ran on gpu
            It timed out on the largemem partition after 41 minutes.       | partition largemem, but it ran on gpu
            It was stopped in partition long.                              | partition long, but it ran on gpu
            It was stopped on the h100x8 partition.                        | partition h100x8, but it ran on gpu
            It ran out of memory on node g013.                             | node g013, but it ran on g012
            It lost its link on g013 and stopped.                          | node g013, but it ran on g012
            """)
    void aPartitionTheJobDidNotRunOnIsSetAside(String answer, String why) {
        assertThat(FactClaims.problem(answer, MATERIAL, GPU_JOB)).hasValueSatisfying(p -> assertThat(p).contains(why));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            It hit its 08:00:00 limit on the GPU partition.
            It hit its 08:00:00 limit; it was on a different partition than its data.
            It hit its limit on the same partition as last week.
            Move it to the long partition with more time.
            It hit its limit; run it on the long partition next time.
            Jobs on the long partition were allowed 7 days.
            It hit its limit on the standard partition.
            With more time on the long partition it finishes.
            It hit its limit on a partition whose nodes are shared.
            It ran out of memory on node g012.
            It ran out of memory; exclude node g013 next time.
            It ran out of memory; resubmit with --exclude=g013.
            Another job was running on g013 at the time.
            """)
    void ordinaryWordsAndProposalsAreNoClaim(String answer) {
        assertThat(FactClaims.problem(answer, MATERIAL, GPU_JOB)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            It hit its 08:00:00 limit on the long partition.
            """)
    void withoutTheJobsPartitionNoPartitionIsChecked(String answer) {
        assertThat(FactClaims.problem(answer, MATERIAL, JobFacts.NONE)).isEmpty();
    }
}
