package io.slurmwise.diagnose;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobLookup;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.FailedStep;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.JobStatus;
import io.slurmwise.job.SacctReader;
import io.slurmwise.testing.DelegatingBackend;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job whose batch script went on and exited 0 is COMPLETED while a step of it failed (the real SLURM 22.05 lab: job
 * 198, an srun step killed for memory, "COMPLETED 0:0, DerivedExitCode 0:125, step 198.0 OUT_OF_MEMORY", read
 * "nothing to diagnose"): the step row is kept, and the job is diagnosed from it.
 */
class FailedStepTest {

    /** sacct -P of the lab's jobs 198 and 184 as SLURM 22.05 prints them (steps folded into their job). */
    private static final String SACCT = "JobID|JobName|State|ExitCode|DerivedExitCode|MaxRSS\n"
            + "198|step_oom|COMPLETED|0:0|0:125|\n"
            + "198.batch|batch|COMPLETED|0:0||4216K\n"
            + "198.extern|extern|COMPLETED|0:0||0\n"
            + "198.0|python3|OUT_OF_MEMORY|0:125||299M\n"
            + "184|set_e_off|COMPLETED|0:0|0:0|\n"
            + "184.batch|batch|COMPLETED|0:0||3100K\n"
            + "184.extern|extern|COMPLETED|0:0||0\n";

    @Test
    void theFirstFailedStepIsKeptWithItsJob() {
        List<JobRecord> jobs = new ArrayList<>();
        SacctReader.open(new StringReader(SACCT)).forEachRemaining(jobs::add);
        assertThat(jobs).hasSize(2);
        assertThat(jobs.get(0).state()).isEqualTo(JobState.COMPLETED);
        assertThat(jobs.get(0).failedStep()).isEqualTo(new FailedStep("198.0", JobStatus.parse("OUT_OF_MEMORY"),
                ExitCode.parse("0:125")));
        assertThat(jobs.get(0).failedStep().describe()).isEqualTo("step 198.0 ended OUT_OF_MEMORY (exit 0:125)");
        assertThat(jobs.get(1).failedStep()).isNull();
    }

    @Test
    void aCompletedJobWithAFailedStepIsDiagnosedFromThatStep() {
        DelegatingBackend cluster = new DelegatingBackend() {
            @Override
            public JobLookup lookup(JobId id) {
                JobLookup inner = super.lookup(id);
                if (!id.toString().equals("1001") || !(inner instanceof JobLookup.Found f)) {
                    return inner;
                }
                // 1001's log holds the step's oom-kill; its record says only that the batch script exited 0
                return new JobLookup.Found(f.job().toBuilder().status(JobStatus.parse("COMPLETED"))
                        .exitCode(ExitCode.parse("0:0")).failedStep(new FailedStep("1001.0",
                                JobStatus.parse("OUT_OF_MEMORY"), ExitCode.parse("0:125"))).build(), f.earlierRuns());
            }
        };
        try (Slurmwise sw = Slurmwise.builder().backend(cluster).build()) {
            Diagnosis d = sw.diagnose("1001");
            assertThat(d).isInstanceOf(Diagnosis.Failed.class);
            Diagnosis.Failed f = (Diagnosis.Failed) d;
            assertThat(f.finding().kindId()).isEqualTo("oom");
            assertThat(f.job().state()).isEqualTo(JobState.COMPLETED); // the record as SLURM wrote it
            assertThat(f.notices()).contains("the job COMPLETED (its batch script exited 0), but step 1001.0 ended"
                    + " OUT_OF_MEMORY (exit 0:125): diagnosed from that step");
        }
        // without a failed step, a completed job has nothing to diagnose
        try (Slurmwise sw = Slurmwise.builder().backend(new DelegatingBackend()).build()) {
            assertThat(sw.diagnose("1002")).isInstanceOf(Diagnosis.StatusOnly.class);
        }
    }
    /**
     * The real lab's job 204 (--kill-on-invalid-dep=yes, afterok on a job that failed): sacct "CANCELLED 0:0
     * Reason=Dependency", naming no canceller, never started. slurmctld cancelled it for its dependency; a user's
     * scancel of a job waiting on its dependency names the user and stays a cancel.
     */
    @Test
    void aJobSlurmCancelledForItsDependencyIsADependencyFailure() {
        String sacct = "JobID|JobName|State|ExitCode|Start|NodeList|Reason\n"
                + "204|dep_kill_invalid|CANCELLED|0:0|None|None assigned|Dependency\n"
                + "205|dep_user_cancel|CANCELLED by 1001|0:0|None|None assigned|Dependency\n"
                + "206|ran_then_cancelled|CANCELLED|0:15|2026-12-07T11:20:00|cn01|None\n";
        List<JobRecord> jobs = new ArrayList<>();
        SacctReader.open(new StringReader(sacct)).forEachRemaining(jobs::add);
        assertThat(jobs.get(0).optPendingReason()).contains("Dependency");
        assertThat(jobs.get(2).optPendingReason()).isEmpty();
        io.slurmwise.classify.Classifier c = new io.slurmwise.classify.Classifier(io.slurmwise.taxonomy.Taxonomy.load(null));
        io.slurmwise.classify.Finding bySlurm = c.classify(io.slurmwise.classify.JobFacts.of(jobs.get(0)), List.of());
        assertThat(bySlurm.kindId()).isEqualTo("dependency");
        assertThat(bySlurm.evidence()).anySatisfy(e -> assertThat(e.text()).startsWith("State=CANCELLED by no one while"
                + " it waited on Reason=Dependency: slurmctld cancelled it"));
        assertThat(c.classify(io.slurmwise.classify.JobFacts.of(jobs.get(1)), List.of()).kindId()).isEqualTo("cancelled");
        assertThat(c.classify(io.slurmwise.classify.JobFacts.of(jobs.get(2)), List.of()).kindId()).isEqualTo("cancelled");
        // the fleet's remembered kinds tell the two cancels apart too
        assertThat(c.recordKind(io.slurmwise.classify.JobFacts.of(jobs.get(0)))).isEqualTo("dependency");
        assertThat(c.recordKind(io.slurmwise.classify.JobFacts.of(jobs.get(1)))).isEqualTo("cancelled");
    }
    /**
     * A refused submission whose script is not kept (the real lab's 8 GPUs asked of a 4-GPU node, 6000M of a 4000M one)
     * read only "the job never got a node": the record says what the partition cannot give.
     */
    @Test
    void aRefusedRequestSaysWhatThePartitionCannotGive() {
        DelegatingBackend noScript = new DelegatingBackend() {
            @Override
            public java.util.Optional<String> batchScript(JobRecord j) {
                return java.util.Optional.empty();
            }
        };
        try (Slurmwise sw = Slurmwise.builder().backend(noScript).build()) {
            Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose("1040");
            // what decided the refusal is evidence (after sbatch's own words, ahead of "the job never got a node"), not
            // a note at the panel's end
            assertThat(f.finding().kindId()).isEqualTo("resources_unavailable");
            List<String> evidence = f.finding().strongestFirst().stream().map(io.slurmwise.classify.Evidence::text).toList();
            assertThat(evidence.get(0)).startsWith("sbatch: error: Batch job submission failed");
            assertThat(evidence.get(1)).startsWith("it asks for more than partition gpuA100x4 gives, so SLURM refused it: ")
                    .contains("8 GPUs per node");
            assertThat(f.notices()).noneMatch(n -> n.startsWith("it asks for more than partition"));
        }
        // with its script, the patch's advice says it, once
        try (Slurmwise sw = Slurmwise.builder().backend(new DelegatingBackend()).build()) {
            Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose("1040");
            assertThat(f.notices()).noneMatch(n -> n.startsWith("it asks for more than partition"));
            // advice about something else does not say it (any advice at all used to hide the notice)
            JobRecord job = sw.backend().job(io.slurmwise.job.JobId.parse("1040")).orElseThrow();
            List<io.slurmwise.job.Partition> parts = sw.backend().partitions();
            assertThat(DiagnosisWorkflow.refusedRequest(job, parts, new io.slurmwise.patch.Patch.NotSuggested("none",
                    List.of(), List.of("Check your account's GPU-hours with `sshare -U`."))))
                    .hasValueSatisfying(n -> assertThat(n).contains("8 GPUs per node"));
            assertThat(DiagnosisWorkflow.refusedRequest(job, parts, new io.slurmwise.patch.Patch.NotSuggested("none",
                    List.of(new io.slurmwise.patch.Patch.Change("--gres=gpu:a100:4", "fits a node",
                            java.util.Map.of("gres", "gpu:a100:4"))), List.of()))).isEmpty();
        }
    }
}
