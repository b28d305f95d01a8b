package io.slurmwise.diagnose;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.job.JobRecord;
import io.slurmwise.testing.DelegatingBackend;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * bash says {@code slurm_script: line 12: PATH: Permission denied} both for a command it could not execute and for a
 * redirect that could not write PATH. The fix list follows the exec_permission fixer's reading of the script: the
 * write-location fix first for a redirect (whose advice says no execute permission is missing), chmod first for a
 * script that could not be run.
 */
class DeniedPathOrderTest {

    /** The fixture cluster's 1030 (exit 126, permission) with {@code err} as its stderr and {@code script} as its script. */
    private static Diagnosis.Failed diagnose(String err, String script) {
        DelegatingBackend b = new DelegatingBackend() {
            @Override
            public LogTail logTail(JobRecord j, LogStream s, int n) {
                return s == LogStream.STDERR ? LogTail.of(s, "/scratch/u/job.err", err) : LogTail.of(s, "/scratch/u/job.out", "");
            }

            @Override
            public Optional<String> batchScript(JobRecord j) {
                return Optional.of(script);
            }
        };
        try (Slurmwise sw = Slurmwise.builder().backend(b).build()) {
            return (Diagnosis.Failed) sw.diagnose("1030");
        }
    }

    private static FixNote ownFixes(Diagnosis.Failed d) {
        assertThat(d.finding().kindId()).isEqualTo("permission");
        return d.fixes().stream().filter(n -> n.kindId().equals("permission") && n.section().equals("Fixes"))
                .findFirst().orElseThrow();
    }

    @Test
    void aRedirectIntoAnUnwritableDirectoryGetsTheWriteLocationFixFirst() {
        Diagnosis.Failed d = diagnose("/var/spool/slurmd/job123/slurm_script: line 4: /scratch/out/log.txt: Permission"
                + " denied\n", "#!/bin/bash\n#SBATCH --time=01:00:00\ncd $HOME\n./simulate --steps 100 > /scratch/out/log.txt\n");
        assertThat(d.patch().advice()).anyMatch(a -> a.contains("no execute permission is missing"));
        FixNote n = ownFixes(d);
        assertThat(n.items().get(0)).startsWith("Write to directories you own");
        assertThat(n.items()).anyMatch(i -> i.startsWith("Make scripts executable"));
        assertThat(n.text()).startsWith("1. Write to directories you own");
    }

    @Test
    void aScriptThatCouldNotBeRunGetsChmodFirst() {
        Diagnosis.Failed d = diagnose("/var/spool/slurmd/job123/slurm_script: line 4: ./tools/run.sh: Permission denied\n",
                "#!/bin/bash\n#SBATCH --time=01:00:00\ncd $HOME\n./tools/run.sh > /scratch/out/log.txt\n");
        assertThat(d.patch().advice()).noneMatch(a -> a.contains("no execute permission is missing"));
        assertThat(d.patch().changes()).anyMatch(c -> c.what().contains("bash ./tools/run.sh"));
        assertThat(ownFixes(d).items().get(0)).startsWith("Make scripts executable");
    }

    /** The permission note's own fixes as {@code classify} lists them for {@code log}, read without a job or script. */
    private static List<String> logOnlyFixes(String log) {
        LogClassification c = LogClassification.ofText(new io.slurmwise.classify.Classifier(TAXONOMY),
                new NoteLookupRetriever(), io.slurmwise.classify.JobFacts.NONE, log, 1);
        assertThat(c.finding().kindId()).isEqualTo("permission");
        return c.fixes().get(0).items();
    }

    private static final io.slurmwise.taxonomy.Taxonomy TAXONOMY = io.slurmwise.taxonomy.Taxonomy.load(null);

    /**
     * Without the script ({@code classify} of a pasted log) only the path's name tells a redirect from a command: nobody
     * executes a CSV table or a .log file, so the write-location fix leads; a script's name keeps chmod first.
     */
    @Test
    void aLogAloneDecidesByThePathsName() {
        assertThat(logOnlyFixes("/var/spool/slurmd/job00123/slurm_script: line 14: /scratch/proj/results/out.csv:"
                + " Permission denied\n").get(0)).startsWith("Write to directories you own");
        assertThat(logOnlyFixes("/var/spool/slurmd/job00123/slurm_script: line 9: run.LOG: Permission denied\n")
                .get(0)).startsWith("Write to directories you own");
        assertThat(logOnlyFixes("/var/spool/slurmd/job00123/slurm_script: line 14: ./tools/run.sh: Permission denied\n")
                .get(0)).startsWith("Make scripts executable");
        assertThat(logOnlyFixes("/var/spool/slurmd/job00123/slurm_script: line 3: /opt/app/bin/solver: Permission"
                + " denied\n").get(0)).startsWith("Make scripts executable");
    }
}
