package io.slurmwise.diagnose;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.job.JobRecord;
import io.slurmwise.testing.DelegatingBackend;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job that never started wrote no log: text at its --output or --error path was written by another job (a fixed
 * name every run reuses), and its error is not this job's cause. Only a submission's own refusal, kept there by what
 * submitted the job, is read.
 */
class NeverStartedLogsTest {

    /** The fixture cluster, with {@code text} at every job's stderr path. */
    static DelegatingBackend withStderr(String text) {
        return new DelegatingBackend() {
            @Override
            public LogTail logTail(JobRecord j, LogStream s, int n) {
                return s == LogStream.STDERR ? LogTail.of(s, "/scratch/u/logs/job.err", text) : super.logTail(j, s, n);
            }
        };
    }

    @Test
    void anotherJobsLogAtTheSamePathIsNotReadAsThisJobsCause() {
        String earlier = "Traceback (most recent call last):\ntorch.OutOfMemoryError: CUDA out of memory. Tried to"
                + " allocate 2.00 GiB\n";
        // 1042 was cancelled while it pended: a CUDA error at its stderr path is an earlier run's
        Diagnosis.Failed d = (Diagnosis.Failed) Slurmwise.builder().backend(withStderr(earlier)).build().diagnose("1042");
        assertThat(d.finding().kindId()).isEqualTo("cancelled");
        assertThat(d.finding().evidence()).noneMatch(e -> e.text().contains("CUDA out of memory"));
        assertThat(d.notices()).contains("stderr: the job never started, so the text at its stderr path"
                + " (/scratch/u/logs/job.err) was written by another job that uses the same name: not read");
        // a job that ran reads the same text as its own
        Diagnosis.Failed ran = (Diagnosis.Failed) Slurmwise.builder().backend(withStderr(earlier)).build().diagnose("1001");
        assertThat(ran.finding().evidence()).anyMatch(e -> e.text().contains("CUDA out of memory"));
    }

    @Test
    void aSubmissionsRefusalKeptAtThePathIsReadAndSaidAsSuch() {
        // 1040's file holds only sbatch's refusal (the mock's wrapper kept it): the words SLURM gave
        Diagnosis.Failed d = (Diagnosis.Failed) Slurmwise.builder().backend(new DelegatingBackend()).build()
                .diagnose("1040");
        assertThat(d.finding().kindId()).isEqualTo("resources_unavailable");
        assertThat(d.notices()).contains("stderr: the job never started; its file holds only the submission's refusal,"
                + " kept there by what submitted the job");
        assertThat(DiagnosisWorkflow.submissionRefusal(List.of("sbatch: error: Batch job submission failed: x", "")))
                .isTrue();
        assertThat(DiagnosisWorkflow.submissionRefusal(List.of("sbatch: error: x", "Traceback (most recent call last):")))
                .isFalse();
        assertThat(DiagnosisWorkflow.submissionRefusal(List.of(" ", ""))).isFalse();
    }
}
