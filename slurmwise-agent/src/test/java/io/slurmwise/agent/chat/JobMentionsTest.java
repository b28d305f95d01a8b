package io.slurmwise.agent.chat;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a chat text names jobs, and which of an answer's words are said of which job. */
class JobMentionsTest {

    private static Map<String, String> byJob(String answer, String... ids) {
        return JobMentions.byJob(answer, new LinkedHashSet<>(List.of(ids)));
    }

    @Test
    void jobsAreReadWhereTheTextNamesThemAsJobs() {
        // a bare number ("500 GB", "48 hours") is none
        assertThat(JobMentions.jobsNamed("After 48 hours jobs 1001, 1008 and 1012_3 failed; job #1044 used 500 GB.", 5))
                .containsExactly("1001", "1008", "1012_3", "1044");
        assertThat(JobMentions.jobsNamed("My run used 500 GB after 48 hours: why?", 5)).isEmpty();
        assertThat(JobMentions.jobsNamed("jobs 1 and 2 and 3", 2)).containsExactly("1", "2");
    }

    @Test
    void aNumberWrittenBareMayBeAJobUnlessItIsAQuantityATimeOrSomeOtherWordsNumber() {
        assertThat(JobMentions.bareNumbers("used 500 GB after 48 hours since 2024 with --time=48 at 12:30 on"
                + " 2026-12-07, 3.5 of 8 GPUs, -n 4, 90%, exit code 137, signal 9, line 40 on node 12; 1001 and 1008_2"
                + " failed.")).containsExactly("1001", "1008_2");
        assertThat(JobMentions.bareNumbers("your newest failure, 1047, and what went wrong with 1001?"))
                .containsExactly("1047", "1001");
    }

    @Test
    void eachJobGetsTheSentencesThatSpeakOfIt() {
        assertThat(byJob("Job 1001 ran out of memory. It used 32G. Job 1008 too. Both 1001 and 1008 failed.", "1001",
                "1008")).containsExactly(Map.entry("1001", "Job 1001 ran out of memory. It used 32G. 1001 and 1008"
                + " failed."), Map.entry("1008", "Job 1008 too. 1001 and 1008 failed."));
        assertThat(byJob("1001 ran out of memory and 1008 out of GPU memory.", "1001", "1008")).containsExactly(
                Map.entry("1001", "1001 ran out of memory and"), Map.entry("1008", "1008 out of GPU memory."));
        assertThat(byJob("Unlike 1008, 1001 ran out of host memory.", "1001", "1008"))
                .containsExactly(Map.entry("1001", "1001 ran out of host memory."));
        // "while" starts a clause of the next job's own
        assertThat(byJob("1001 ran out of host RAM, while 1008 ran out of GPU memory.", "1001", "1008"))
                .containsEntry("1008", "1008 ran out of GPU memory.")
                .hasEntrySatisfying("1001", w -> assertThat(w).doesNotContain("GPU"));
    }

    /**
     * A job negated right after another takes none of its words, and its "not" is no denial of the other's (an
     * audit: "1001, not 1008, ran out of time" was checked against 1008 too, and 1001 against nothing).
     */
    @Test
    void aJobNegatedBesideAnotherTakesNoneOfItsWords() {
        assertThat(byJob("1001, not 1008, ran out of time.", "1001", "1008"))
                .containsExactly(Map.entry("1001", "1001, ran out of time."));
        assertThat(byJob("1001 but not 1008 ran out of time. It needs more.", "1001", "1008"))
                .containsExactly(Map.entry("1001", "1001 ran out of time. It needs more."));
        assertThat(byJob("Jobs 1001 and 1012, except 1008, hit the limit.", "1001", "1012", "1008"))
                .containsOnlyKeys("1001", "1012").containsEntry("1012", "1001 and 1012, hit the limit.");
        assertThat(byJob("1016, not 1008, ran out of time; 1008 hit CUDA out of memory.", "1016", "1008"))
                .containsExactly(Map.entry("1016", "1016, ran out of time;"),
                        Map.entry("1008", "1008 hit CUDA out of memory."));
        // a job set against another after that one's own words keeps words of its own
        assertThat(byJob("1001 ran out of host memory, unlike 1008 which hit its time limit.", "1001", "1008"))
                .containsEntry("1008", "1008 which hit its time limit.");
    }
}
