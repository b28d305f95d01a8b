package io.slurmwise.cli.diagnose;

import io.slurmwise.Slurmwise;
import io.slurmwise.cli.Cli;
import io.slurmwise.cli.ExitCodes;
import io.slurmwise.cli.SlurmwiseCommand;
import io.slurmwise.cli.render.DiagnosisRenderer;
import io.slurmwise.cli.render.Json;
import io.slurmwise.view.Views;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.job.JobId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code slurmwise diagnose <jobid>}: why a job failed and what to change. */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = {"Explain why a job failed: the cause (rules), its evidence, and fixes.",
                "A running, pending or completed job gets its status instead.",
                "Example: slurmwise diagnose 1001"})
public final class DiagnoseCommand implements Callable<Integer> {

    @ParentCommand
    private SlurmwiseCommand root;

    @Parameters(index = "0", paramLabel = "JOBID", description = "Job id: 1001, an array task 4242_3, or a het component 123+1.")
    private String jobId;

    @Option(names = "--json", description = "Machine-readable output (schema slurmwise.diagnosis/v1).")
    private boolean json;

    @Option(names = "--no-llm", description = "Word the explanation from a template, never a language model (also: SLURMWISE_NO_LLM=1).")
    private boolean noLlm;

    @Option(names = "--direct", description = "Rules and the kind's own note only: no language model, no embedding index (fastest).")
    private boolean direct;

    @Option(names = "--full", description = "Show everything: the explanation, every note section with its score, the whole diff and advice.")
    private boolean full;

    @Override
    public Integer call() {
        Cli cli = root.cli();
        JobId id = JobId.parse(jobId);
        if (noLlm) {
            cli.disableLlm();
        }
        if (direct) {
            cli.direct();
        } else {
            // the model loads while the backend is asked and the rules run: ~0.3 s off a mock diagnose
            cli.knowledgeBase().prewarm();
        }
        Slurmwise sw = cli.slurmwise();
        Diagnosis d = sw.diagnose(id);
        if (json) {
            Json.print(cli.out(), Views.diagnosis(d, cli.backendReason()));
        } else {
            new DiagnosisRenderer(cli.style(), full).print(cli.out(), d, cli.backendReason());
        }
        cli.llmFallbackReason().ifPresent(r -> cli.err().println(cli.style().dim("slurmwise: " + r)));
        if (d instanceof Diagnosis.NotFound) {
            if (!json) {
                cli.err().println("slurmwise: job " + id + " not found (" + cli.backendReason() + ")");
            }
            return ExitCodes.NOT_FOUND;
        }
        return ExitCodes.OK;
    }
}
