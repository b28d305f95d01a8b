package io.slurmwise.classify;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Nextflow's report gives the task's exit status on the line under its label; the two lines read as one. */
class StatusFieldTest {

    private static Finding classify(String log) {
        return ClassifierTest.CLASSIFIER.classifyText(JobFacts.NONE, log);
    }

    @Test
    void theValueUnderTheLabelIsTheStatus() {
        Finding f = classify("""
                Command executed:
                  iqtree -s core_genome.nex -m TEST

                Command exit status:
                  137

                Command output:
                  (empty)
                """);
        assertThat(f.kindId()).isEqualTo("oom");
        // the deciding line is the value's, quoted as the one line the two mean
        assertThat(f.evidence()).extracting(Evidence::line, Evidence::text)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(5L, "Command exit status: 137"));
        assertThat(classify("Command exit status:\n  127\n").kindId()).isEqualTo("file_not_found");
    }

    @Test
    void theFieldIsReadInTheFormsTextArrivesIn() {
        assertThat(StatusField.read("[2024-05-01T10:00:00] Command exit status:", "[2024-05-01T10:00:00]   137"))
                .contains(new StatusField.Value(137, true));
        assertThat(StatusField.read("\u001b[1mCommand exit status:\u001b[0m", "`  139`"))
                .contains(new StatusField.Value(139, true));
        assertThat(StatusField.read("  45%|####  | 45/100\rcommand exit status:", "\r  137"))
                .contains(new StatusField.Value(137, true));
        // a letter that Unicode lowering lengthens (İ) before the label moves no offset
        assertThat(StatusField.read("İİİİ Command exit status:", "  137")).contains(new StatusField.Value(137, true));
        // a wrapper's exception carrying the report's lines with escaped line breaks
        assertThat(StatusField.read("RuntimeError('stderr:\\nCommand exit status:\\n  137\\nCommand output:", null))
                .contains(new StatusField.Value(137, false));
    }

    @Test
    void onlyAStatusUnderTheLabelIsRead() {
        // the value beside the label is read by the signatures as the line is, not a second time here
        assertThat(StatusField.read("Command exit status: 137", "Command output:")).isEmpty();
        assertThat(StatusField.read("Command exit status:", "  (empty)")).isEmpty();
        assertThat(StatusField.read("Command exit status:", "  -")).isEmpty(); // no exit file: no status
        assertThat(StatusField.read("Command exit status:", "  1370")).isEmpty();
        assertThat(StatusField.read("Command exit status:", "  300")).isEmpty(); // beyond 8 bits: no exit status
        assertThat(StatusField.read("Command exit status:", null)).isEmpty();    // the log's last line
        assertThat(classify("Command exit status:\n  1\n").kindId()).isEqualTo("unknown");
    }

    @Test
    void aStatusAfterTheEventThatEndedTheJobIsItsConsequence() {
        Finding f = classify("""
                slurmstepd: error: *** JOB 77 ON c001 CANCELLED AT 2026-11-20T14:02:11 DUE TO TIME LIMIT ***
                Command exit status:
                  137
                """);
        assertThat(f.kindId()).isEqualTo("time_limit");
        assertThat(f.others()).extracting(Finding.KindScore::kindId).doesNotContain("oom");
    }
}
