package io.slurmwise.diagnose;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.BackendException;
import io.slurmwise.job.JobRecord;
import io.slurmwise.testing.DelegatingBackend;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Another user's job (the real lab's root job diagnosed by the test user): slurmctld refuses its script with "Invalid
 * user id", which read as a command that failed; it is said as whose job it is.
 */
class OtherUsersJobTest {

    @Test
    void anotherUsersScriptIsSaidAsTheirs() {
        DelegatingBackend refusing = new DelegatingBackend() {
            @Override
            public Optional<String> batchScript(JobRecord j) {
                throw new BackendException("`scontrol write batch_script " + j.id() + " -` failed with exit code 0: job"
                        + " script retrieval failed: Invalid user id");
            }
        };
        try (Slurmwise sw = Slurmwise.builder().backend(refusing).build()) {
            Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose("1001"); // alice's job, read by whoever runs the test
            String you = System.getProperty("user.name");
            assertThat(f.notices()).contains("batch script: job 1001 is alice's, and slurmctld gives a job's script"
                    + " only to its user and admins (`Invalid user id` for " + you + ")");
        }
    }
}
