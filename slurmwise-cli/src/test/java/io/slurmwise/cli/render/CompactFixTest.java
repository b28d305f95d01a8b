package io.slurmwise.cli.render;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The compact view's one-line fix items: a code block must not leave a sentence with a hole in it. */
class CompactFixTest {

    @Test
    void aShortCodeBlockIsShownInlineWithoutShebangOrComments() {
        String item = """
                Make failures visible: start the batch script with
                   ```
                   #!/bin/bash
                   set -euo pipefail
                   # show each command
                   set -x
                   ```
                   so the failing command and its exit code appear in the log.""";
        assertThat(DiagnosisRenderer.compactItem(item)).isEqualTo("Make failures visible: start the batch script with "
                + "`set -euo pipefail; set -x` so the failing command and its exit code appear in the log.");
    }

    @Test
    void aLongCodeBlockShowsItsFirstCommandAndAnEllipsis() {
        String item = """
                Activate the environment explicitly in the batch script:
                   ```bash
                   source ~/miniconda3/etc/profile.d/conda.sh
                   conda activate myenv
                   export PYTHONNOUSERSITE=1
                   ```
                   or `source /path/to/venv/bin/activate`.""";
        assertThat(DiagnosisRenderer.compactItem(item)).isEqualTo("Activate the environment explicitly in the batch "
                + "script: `source ~/miniconda3/etc/profile.d/conda.sh; …` or `source /path/to/venv/bin/activate`.");
    }

    @Test
    void sbatchLinesAreKeptAndAnItemWithoutCodeIsOnlyJoined() {
        assertThat(DiagnosisRenderer.compactItem("Ask for it:\n```\n#SBATCH --requeue\n```\nthen resubmit."))
                .isEqualTo("Ask for it: `#SBATCH --requeue` then resubmit.");
        assertThat(DiagnosisRenderer.compactItem("Raise `--mem`\n   to twice the peak.")).isEqualTo("Raise `--mem` to twice the peak.");
        assertThat(DiagnosisRenderer.compactItem("An open block\n```\nmake -j4")).isEqualTo("An open block `make -j4`");
    }

    @Test
    void aCommandsDotSlashKeepsItsSpace() {
        // "timeout 2h srun ./prog" once read "srun./prog": the space before a removed block's punctuation goes, not this one
        assertThat(DiagnosisRenderer.compactItem("Add `timeout` around steps (`timeout 2h srun ./prog`) and logging."))
                .isEqualTo("Add `timeout` around steps (`timeout 2h srun ./prog`) and logging.");
        assertThat(DiagnosisRenderer.compactItem("then `gdb ./prog core.<pid>` and `bt`."))
                .isEqualTo("then `gdb ./prog core.<pid>` and `bt`.");
        assertThat(DiagnosisRenderer.compactItem("Run it:\n```\nsrun ./prog\n```\n.")).isEqualTo("Run it: `srun ./prog`.");
    }

    /**
     * --full shows a note's text reflowed: its line breaks were made at 80 columns in the file, and the job's facts
     * filled in ("(500G, measured peak 499.9G):") left short orphan lines (an outside audit); fenced code, list entries
     * and blank lines keep theirs.
     */
    @Test
    void theFullViewJoinsANotesLinesIntoParagraphsAndKeepsCodeAndListsWhole() {
        String item = """
                Ask for more memory, about half again the limit the job was killed at
                (500G, measured peak 499.9G):
                `#SBATCH --mem=768G` (per node) or
                `#SBATCH --mem-per-cpu=12G`.
                   ```
                   #SBATCH --requeue
                   srun python train.py
                   ```
                   then resubmit.

                - a list entry
                  that goes on
                - another""";
        assertThat(DiagnosisRenderer.reflow(item)).containsExactly(
                "Ask for more memory, about half again the limit the job was killed at (500G, measured peak 499.9G):"
                        + " `#SBATCH --mem=768G` (per node) or `#SBATCH --mem-per-cpu=12G`.",
                "   ```", "   #SBATCH --requeue", "   srun python train.py", "   ```",
                "   then resubmit.", "", "- a list entry that goes on", "- another");
    }

    /**
     * The full view drops a code block's fences, never re-wraps its lines at their spaces (a comment cut onto a line of
     * its own would run as a command; the rest goes on under ↪), and takes Markdown's emphasis off words outside code.
     */
    @Test
    void theFullViewShowsCodeAsCodeAndWordsWithoutMarkup() {
        String item = """
                Checkpoint and continue, **before** the *limit*:
                   ```
                   on_usr1() { kill -USR1 "$PID"; wait "$PID"; scontrol requeue "$SLURM_JOB_ID"; }
                   ```
                   keep `ls *.out` and `a*b*c` as they are.""";
        List<String> shown = DiagnosisRenderer.fullText(item, 40);
        assertThat(shown).noneMatch(l -> l.contains("```"));
        assertThat(shown.get(0)).isEqualTo("Checkpoint and continue, before the limit:");
        assertThat(shown.get(1)).isEqualTo("   on_usr1() { kill -USR1 \"$PID\"; wait \"");
        assertThat(shown.get(2)).startsWith("↪ ");
        assertThat(String.join("", shown.subList(1, shown.size() - 1)).replace("↪ ", ""))
                .isEqualTo("   on_usr1() { kill -USR1 \"$PID\"; wait \"$PID\"; scontrol requeue \"$SLURM_JOB_ID\"; }");
        assertThat(shown.get(shown.size() - 1)).isEqualTo("   keep `ls *.out` and `a*b*c` as they are.");
    }
}
