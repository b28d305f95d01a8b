package io.slurmwise.diagnose;

import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The fixes shown first are the ones about what the deciding evidence says; nothing is dropped. */
class FixOrderTest {

    static final Taxonomy TAXONOMY = Taxonomy.load(null);
    static final Classifier CLASSIFIER = new Classifier(TAXONOMY);

    private static FixNote ownFixes(String log) {
        Finding f = CLASSIFIER.classifyText(JobFacts.NONE, log);
        List<FixNote> fixes = FixOrder.byEvidence(new NoteLookupRetriever().retrieve(f, null, 1), f);
        assertThat(fixes.get(0).section()).isEqualTo("Fixes");
        return fixes.get(0);
    }

    @Test
    void aStepThatWaitsInsideItsJobGetsTheStepFixFirst() {
        FixNote n = ownFixes("srun: Job 9479148 step creation temporarily disabled, retrying (Requested nodes are busy)\n");
        assertThat(n.kindId()).isEqualTo("resources_unavailable");
        assertThat(n.items().get(0)).contains("srun --overlap");
        assertThat(n.text()).startsWith("1. Let a step that waits inside the job");
        assertThat(n.items()).hasSize(TAXONOMY.kind("resources_unavailable").note().section("Fixes").orElseThrow()
                .items().size());
    }

    /** Two items quote the evidence: the one about the line printed first (the cause) leads, not the note's order. */
    @Test
    void theFixForTheFirstPrintedMessageLeads() {
        FixNote n = ownFixes("""
                srun: error: Step requested GRES (gpu:(null)) not found in the job
                srun: error: Unable to create step for job 4242: Invalid generic resource (gres) specification
                """);
        assertThat(n.items().get(0)).startsWith("For `Step requested GRES`");
        assertThat(n.items().get(1)).startsWith("Pick the partition"); // quotes the consequence line
        assertThat(n.text()).startsWith("1. For `Step requested GRES`");
        // SLURM's generic refusal alone still brings its own item first
        assertThat(ownFixes("srun: error: Unable to create step for job 4242: Invalid generic resource (gres) "
                + "specification\n").items().get(0)).startsWith("Pick the partition");
        assertThat(FixOrder.firstQuoted("See `Invalid generic resource` and `Step requested GRES`.",
                List.of("srun: error: step requested gres (gpu) not found", "invalid generic resource (gres)"))).isZero();
    }

    /** A fix the job's script already follows stays last even when it quotes the deciding line; the flag goes with it. */
    @Test
    void aFixTheScriptAlreadyFollowsStaysLastWhateverItQuotes() {
        Finding f = CLASSIFIER.classifyText(JobFacts.NONE, "Segmentation fault (core dumped)\n");
        String followed = "For `Segmentation fault`, enable core dumps: `ulimit -c unlimited` (the job's script already has"
                + " `ulimit -c unlimited`)";
        FixNote n = new FixNote("segfault", "Segfault", "Fixes", "1. Run it under gdb.\n2. " + followed, 1.0, "x",
                List.of("Run it under gdb.", followed), java.util.Set.of(followed));
        FixNote ordered = FixOrder.byEvidence(List.of(n), f).get(0);
        assertThat(ordered.items()).containsExactly("Run it under gdb.", followed);
        assertThat(ordered.followed()).containsExactly(followed);
        FixNote unflagged = FixOrder.byEvidence(List.of(new FixNote("segfault", "Segfault", "Fixes", n.text(), 1.0, "x",
                n.items())), f).get(0);
        assertThat(unflagged.items().get(0)).isEqualTo(followed); // the same words without the flag: it quotes the line
    }

    @Test
    void anOptionErrorGetsTheCorrectTheOptionFixFirst() {
        FixNote n = ownFixes("sbatch: error: Invalid numeric value \"4G\" for --cpus-per-task.\n");
        assertThat(n.items().get(0)).startsWith("Correct the option");
    }

    /** The fix about the message comes first: a used-up allocation, a shell without `module`, a directory not ours. */
    @Test
    void aReasonWordOrACoreutilsMessageBringsItsFixFirst() {
        assertThat(ownFixes("sbatch: error: AssocGrpBillingMinutes\n").items().get(0)).startsWith("Ask the project's PI or the allocation office");
        assertThat(ownFixes("/var/spool/slurmd/job01012/slurm_script: line 12: module: command not found\n").items().get(0))
                .startsWith("Initialise the module system");
        assertThat(ownFixes("mkdir: cannot create directory '/projects/lab/shared/cache': Permission denied\n").items().get(0))
                .startsWith("Write to directories you own");
        assertThat(ownFixes("sbatch: error: Batch job submission failed: User's group not permitted to use this partition\n")
                .items().get(0)).startsWith("For `User's group not permitted to use this partition`");
        assertThat(ownFixes("/var/spool/slurmd/job01012/slurm_script: line 7: samtools: command not found\n").items().get(0))
                .startsWith("For `command not found`");
        // an option is not a message: `--mem-per-cpu` in an item never reorders
        assertThat(FixOrder.quotes("Use `--mem-per-cpu-gpu-x`.", List.of("--mem-per-cpu-gpu-x"))).isFalse();
        assertThat(FixOrder.quotes("See `AssocGrpBillingMinutes`.", List.of("reason=assocgrpbillingminutes"))).isTrue();
    }

    /** 1059 waits on its QOS's per-user GPU limit and will start without changes; 1057 asks for more than a job may. */
    @Test
    void aPendingJobThatWillStartIsToldToWaitFirstAndOneThatCannotToChange() {
        try (io.slurmwise.Slurmwise sw = io.slurmwise.Slurmwise.builder()
                .backend(new io.slurmwise.testing.FixtureCluster()).build()) {
            PendingInfo will = ((Diagnosis.StatusOnly) sw.diagnose("1059")).pending();
            assertThat(will.startability()).isEqualTo(PendingReasons.Startability.WILL);
            assertThat(will.fixes().get(0).items().get(0)).startsWith("For pending jobs on per-user or group limits, wait");
            assertThat(will.fixes().get(0).text()).startsWith("1. For pending jobs on per-user or group limits, wait");
            // a pending job's reason is evidence too: 1054's used-up GPU minutes, 1052's maintenance reservation
            assertThat(((Diagnosis.StatusOnly) sw.diagnose("1054")).pending().fixes().get(0).items().get(0))
                    .startsWith("Ask the project's PI or the allocation office");
            assertThat(((Diagnosis.StatusOnly) sw.diagnose("1052")).pending().fixes().get(0).items().get(0))
                    .startsWith("For maintenance reservations");
            // 1048 was cancelled by uid 0 (root): the admin's fix first; 1017, cancelled by its user's uid, keeps the order
            assertThat(((Diagnosis.Failed) sw.diagnose("1048")).fixes().get(0).items().get(0)).startsWith("If an admin cancelled it");
            assertThat(((Diagnosis.Failed) sw.diagnose("1017")).fixes().get(0).items().get(0)).startsWith("If you cancelled it by mistake");
            PendingInfo never = ((Diagnosis.StatusOnly) sw.diagnose("1057")).pending();
            assertThat(never.startability()).isEqualTo(PendingReasons.Startability.NEVER);
            assertThat(never.fixes().get(0).items().get(0)).startsWith("Request within the limit");
        }
        // the shell's wait "$PID" is not advice to wait
        FixNote n = new FixNote("k", "t", "Fixes", "1. Trap it: `wait \"$PID\"`.\n2. Or wait.", 1, "s",
                List.of("Trap it: `wait \"$PID\"`.", "Or wait."));
        assertThat(FixOrder.forWaiting(List.of(n)).get(0).items()).containsExactly("Or wait.", "Trap it: `wait \"$PID\"`.");
    }

    @Test
    void withoutAQuotedMessageInTheEvidenceTheNotesOrderStands() {
        FixNote n = ownFixes("sbatch: error: Batch job submission failed: Requested time limit is invalid (missing or exceeds some limit)\n");
        assertThat(n.items().get(0)).startsWith("Fit the partition");
        List<String> asWritten = TAXONOMY.kind("resources_unavailable").note().section("Fixes").orElseThrow().items();
        assertThat(n.items()).isEqualTo(asWritten);
    }

    /**
     * A refusal a workflow manager quotes is of the job it submitted, set in the workflow, not in the batch job's
     * #SBATCH lines (an outside audit: 1020's Snakemake rule asked 3 days on QOS normal, and the fixes told the head
     * job to lower its --time); a bare sbatch error, which may be the user's own submission, keeps the note's order.
     */
    @Test
    void aWorkflowManagersRefusedSubmissionPutsTheWorkflowsFixFirst() {
        FixNote n = ownFixes("WorkflowError:\nSLURM sbatch failed. The error message was sbatch: error: QOSMaxWallDurationPerJobLimit\n"
                + "sbatch: error: Batch job submission failed: Job violates accounting/QOS policy (job submit limit, user's size"
                + " and/or time limits)\n");
        assertThat(n.kindId()).isEqualTo("qos_limit");
        assertThat(n.items().get(0)).startsWith("Fix the request in the workflow").contains("runtime=<minutes>");
        FixNote own = ownFixes("sbatch: error: QOSMaxWallDurationPerJobLimit\nsbatch: error: Batch job submission failed: Job"
                + " violates accounting/QOS policy (job submit limit, user's size and/or time limits)\n");
        assertThat(own.items().get(0)).startsWith("Request within the limit");
    }

    @Test
    void aQuoteMatchesAcrossLineBreaksAndCaseButNotAShortOption() {
        assertThat(FixOrder.quotes("when SLURM says `Step Creation\n   temporarily disabled`", List.of(
                "srun: job 1 step creation temporarily disabled, retrying"))).isTrue();
        assertThat(FixOrder.quotes("use `--overlap` or `--cpus-per-task`", List.of("srun --overlap --cpus-per-task was not given"))).isFalse();
        // a short quote does not shift the pairing of the quotes after it
        assertThat(FixOrder.quotes("without `--mem` asks for all of the job's memory (`--mem-per-cpu` or (For `Cancelled pending step`)",
                List.of("srun: cancelled pending step for job 1"))).isTrue();
        assertThat(FixOrder.quotes("without `--mem` asks for all of the job's memory (`--mem-per-cpu`)",
                List.of("without --mem asks for all of the job's memory (--mem-per-cpu"))).isFalse();
    }
}
