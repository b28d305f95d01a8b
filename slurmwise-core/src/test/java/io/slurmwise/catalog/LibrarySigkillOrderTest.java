package io.slurmwise.catalog;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A parent's report of a child killed by SIGKILL (bash's {@code Killed}, MPI's {@code exited on signal 9 (Killed)},
 * loky's {@code {SIGKILL(-9)}}, Python's {@code died with <Signals.SIGKILL: 9>}) is a memory kill only when nothing
 * ended the job first: after SLURM's time-limit, cancel or preemption line it is that event's consequence. Checked
 * for every catalog row that reports SIGKILL and maps to {@code oom}.
 */
class LibrarySigkillOrderTest {

    static final Classifier CLASSIFIER = new Classifier(Taxonomy.load(null));
    static final JobFacts FAILED = JobFacts.NONE.withState(JobState.FAILED).withExitCode(ExitCode.parse("1:0"));
    static final Pattern SIGKILL = Pattern.compile("(?i)\\bKilled\\b|SIGKILL");
    static final List<String[]> FIRST = List.of(
            new String[] {"slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME LIMIT ***",
                    "time_limit"},
            new String[] {"slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2024-05-01T10:00:00 DUE TO PREEMPTION ***",
                    "preempted"});

    @Test
    void aSigkillReportAfterTheJobWasEndedIsThatEventsConsequence() {
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (MessageCatalog.Entry e : LibraryCatalog.entries()) {
            if (!e.verdict().equals("oom") || !SIGKILL.matcher(e.text()).find()) {
                continue;
            }
            checked++;
            for (String[] first : FIRST) {
                String log = "step 1200/5000 loss 0.31\n" + first[0] + "\n" + e.text() + "\n";
                for (JobFacts facts : List.of(JobFacts.NONE, FAILED)) {
                    Finding f = CLASSIFIER.classifyText(facts, log);
                    if (!f.kindId().equals(first[1])) {
                        wrong.add(e + ": after '" + first[1] + "' classified " + f.kindId());
                    }
                }
            }
            // alone, the same line is the memory kill the row maps to
            Finding alone = CLASSIFIER.classifyText(FAILED, "step 1200/5000 loss 0.31\n" + e.text() + "\n");
            if (!alone.kindId().equals("oom")) {
                wrong.add(e + ": alone classified " + alone.kindId());
            }
        }
        wrong.forEach(w -> System.out.println("WRONG " + w));
        assertThat(checked).as("catalog rows reporting SIGKILL as oom").isGreaterThanOrEqualTo(5);
        assertThat(wrong).as("SIGKILL reports after the job was ended, or alone").isEmpty();
    }
}
