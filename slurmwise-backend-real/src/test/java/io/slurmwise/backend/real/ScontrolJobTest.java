package io.slurmwise.backend.real;

import io.slurmwise.job.ExitCode;
import io.slurmwise.testing.Captures;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ScontrolJobTest {

    @Test
    void finishedJobsOfTheReferenceCaptures() {
        List<ScontrolJob> jobs = Captures.outputs("cgroup/scontrol_finished.txt").stream()
                .flatMap(o -> ScontrolJob.parseAll(o).stream()).toList();
        assertThat(jobs).hasSizeGreaterThanOrEqualTo(5);
        ScontrolJob timeout = jobs.get(0);
        assertThat(timeout.jobId()).isEqualTo("1");
        assertThat(timeout.displayId()).isEqualTo("1");
        assertThat(timeout.state()).contains("TIMEOUT");
        assertThat(timeout.exitCode()).contains(ExitCode.parse("0:15"));
        assertThat(timeout.stdOut()).contains("/home/slurmtest/jobs-20261130-003736/too_slow-1.out");
        assertThat(timeout.stdErr()).contains("/home/slurmtest/jobs-20261130-003736/too_slow-1.err");
        assertThat(timeout.workDir()).contains("/home/slurmtest/jobs-20261130-003736");
        assertThat(timeout.batchHost()).contains("vm");
        assertThat(timeout.userName()).contains("slurmtest");
        assertThat(timeout.field("TRES")).contains("cpu=1,mem=100M,node=1,billing=1");
        ScontrolJob dependent = jobs.stream().filter(j -> j.jobId().equals("3")).findFirst().orElseThrow();
        assertThat(dependent.reason()).contains("DependencyNeverSatisfied");
        assertThat(dependent.field("Dependency")).contains("afterok:2(failed)");
        assertThat(dependent.field("NodeList")).isEmpty();
    }

    /**
     * Deadline= and TimeMin= of the real lab's jobs (22.05.8): deadline_cut (--time=00:10:00 --time-min=00:01:00, a
     * --deadline 110 s ahead: TimeLimit cut to 00:01:00), deadline_never (no --time-min) and time_override (neither).
     */
    @Test
    void theDeadlineAndTheMinimumTime() {
        ScontrolJob cut = ScontrolJob.parseAll(RealCaptures.output("scontrol_show_job_deadline_cut.txt")).get(0);
        assertThat(cut.field("TimeLimit")).contains("00:01:00");
        assertThat(cut.timeMin()).contains(java.time.Duration.ofMinutes(1));
        assertThat(cut.deadline()).contains(java.time.LocalDateTime.of(2026, 12, 7, 14, 56, 23));
        ScontrolJob never = ScontrolJob.parseAll(RealCaptures.output("scontrol_show_job_deadline_never.txt")).get(0);
        assertThat(never.state()).contains("DEADLINE");
        assertThat(never.reason()).contains("DeadLine");
        assertThat(never.deadline()).isPresent();
        assertThat(never.timeMin()).as("TimeMin=N/A").isEmpty();
        ScontrolJob override = ScontrolJob.parseAll(RealCaptures.output("scontrol_show_job_time_override.txt")).get(0);
        assertThat(override.deadline()).as("Deadline=N/A").isEmpty();
        assertThat(override.timeMin()).isEmpty();
    }

    /**
     * EligibleTime= and Restarts= of the real lab's begin_later (--begin=now+2hours) and of 323, requeued two seconds
     * before (scontrol requeue while it ran; 8 s later: Reason=BeginTime, Restarts=1, eligible 121 s after the requeue).
     */
    @Test
    void theEarliestStartAndTheRequeues() {
        ScontrolJob begin = ScontrolJob.parseAll(RealCaptures.output("scontrol_show_job_begin.txt")).get(0);
        assertThat(begin.reason()).contains("BeginTime");
        assertThat(begin.eligibleTime()).contains(java.time.LocalDateTime.of(2026, 12, 7, 16, 53, 14));
        assertThat(begin.restarts()).isZero();
        ScontrolJob requeued = ScontrolJob.parseAll(RealCaptures.output("scontrol_show_job_requeued.txt")).get(0);
        assertThat(requeued.reason()).contains("BeginTime");
        assertThat(requeued.eligibleTime()).contains(java.time.LocalDateTime.of(2026, 12, 7, 15, 13, 32));
        assertThat(requeued.restarts()).isEqualTo(1);
        ScontrolJob held = ScontrolJob.parseAll("JobId=9 JobName=x\n   Restarts=0 EligibleTime=Unknown\n").get(0);
        assertThat(held.eligibleTime()).isEmpty();
    }

    @Test
    void theShellsExitCodeThatSacctWraps() {
        ScontrolJob segv = ScontrolJob.parseAll(RealCaptures.output("scontrol_show_job_segfault.txt")).get(0);
        assertThat(segv.exitCode()).contains(ExitCode.parse("139:0"));
        assertThat(segv.exitCode().orElseThrow().shellSignal()).contains(11);
    }

    @Test
    void arrayTasksAndNamesWithSpaces() {
        ScontrolJob task = ScontrolJob.parseAll(RealCaptures.output("scontrol_show_job_array_task.txt")).get(0);
        assertThat(task.jobId()).isEqualTo("64");
        assertThat(task.displayId()).isEqualTo("63_7");
        assertThat(task.field("JobName")).contains("we ird");
        assertThat(task.stdOut()).contains("/var/tmp/slurmwise-lab/work/probe-patterns/arr_63_%3a_64_%J_%b.out");
    }

    @Test
    void pendingReasonsWithSpacesStopAtTheNextKey() {
        String text = "JobId=8 JobName=gpu_job\n   JobState=PENDING Reason=Nodes required for job are DOWN, DRAINED"
                + " or reserved for jobs in higher priority partitions Dependency=(null)\n   ExitCode=0:0\n";
        ScontrolJob j = ScontrolJob.parseAll(text).get(0);
        assertThat(j.reason()).contains("Nodes required for job are DOWN, DRAINED or reserved for jobs in higher"
                + " priority partitions");
        assertThat(j.field("Dependency")).isEmpty();
        ScontrolJob pending = ScontrolJob.parseAll(RealCaptures.output("scontrol_show_job_pending_array_reason.txt")).get(0);
        assertThat(pending.state()).contains("PENDING");
        assertThat(pending.reason()).contains("DependencyNeverSatisfied");
    }

    @Test
    void severalRecordsAndNoRecord() {
        String two = RealCaptures.output("scontrol_show_job_patterns.txt") + "\n" + RealCaptures.output("scontrol_show_job_array_task.txt");
        assertThat(ScontrolJob.parseAll(two)).extracting(ScontrolJob::displayId).containsExactly("62", "63_7");
        assertThat(ScontrolJob.parseAll("")).isEmpty();
        assertThat(ScontrolJob.parseAll("slurm_load_jobs error: Invalid job id specified\n")).isEmpty();
    }
}
