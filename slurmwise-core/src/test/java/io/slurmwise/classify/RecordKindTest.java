package io.slurmwise.classify;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.taxonomy.Taxonomy;
import io.slurmwise.testing.FixtureCluster;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The remembered record-only kind and confidence are always what classifying the record afresh gives. */
class RecordKindTest {

    @Test
    void theRememberedKindIsTheFreshVerdictOnRandomAndRealRecords() {
        Classifier c = new Classifier(Taxonomy.load(null));
        Random r = new Random(14);
        String[] reasons = {null, "Dependency", "DependencyNeverSatisfied", "QOSMaxWallDurationPerJobLimit",
                "AssocGrpCPUMinutesLimit", "ReqNodeNotAvail, UnavailableNodes:gpu01", "Resources", "None"};
        String[] nodes = {null, "None assigned", "gpua012", " none ASSIGNED "};
        int kinds = 0;
        for (int i = 0; i < 20_000; i++) {
            JobState st = JobState.values()[r.nextInt(JobState.values().length)];
            ExitCode e = r.nextInt(5) == 0 ? null : new ExitCode(r.nextInt(4) == 0 ? r.nextInt(256) : r.nextInt(3),
                    r.nextInt(3) == 0 ? r.nextInt(16) : 0);
            DataSize limit = r.nextInt(4) == 0 ? null : new DataSize((1 + r.nextInt(64)) * DataSize.GIB);
            DataSize rss = r.nextInt(4) == 0 || limit == null ? null : new DataSize((long) (limit.bytes() * r.nextDouble() * 1.1));
            Duration tl = r.nextInt(4) == 0 ? null : Duration.ofMinutes(r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(600));
            Duration el = r.nextInt(5) == 0 ? null : Duration.ofMinutes(r.nextInt(700));
            JobFacts f = new JobFacts(r.nextInt(10) == 0 ? null : st, e, rss, limit, el, tl,
                    reasons[r.nextInt(reasons.length)], nodes[r.nextInt(nodes.length)]);
            Finding found = c.classify(f, java.util.List.of());
            String fresh = found.kindId();
            assertThat(c.recordKind(f)).as(f.toString()).isEqualTo(fresh);
            // the confidence is remembered with the kind (jobs marks a kind under 0.7 as tentative from it)
            assertThat(c.recordVerdict(f)).as(f.toString()).isEqualTo(Classifier.Verdict.of(found));
            if (!fresh.equals("unknown")) {
                kinds++;
            }
        }
        assertThat(kinds).as("the random records reach real kinds").isGreaterThan(1000);
        for (JobRecord j : new FixtureCluster().all()) {
            assertThat(c.recordVerdict(JobFacts.of(j))).as(j.id().toString())
                    .isEqualTo(Classifier.Verdict.of(c.classify(JobFacts.of(j), java.util.List.of())));
        }
    }
}
