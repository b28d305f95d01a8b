package io.slurmwise.cli.diagnose;

import io.slurmwise.Slurmwise;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.render.DiagnosisRenderer;
import io.slurmwise.cli.render.Json;
import io.slurmwise.view.Views;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.job.JobId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

/** {@code slurmwise diagnose <jobid>}: why a job failed and what to change. */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = {"Explain why a job failed: the cause (rules), its evidence, and fixes.",
                "A running, pending or completed job gets its status instead.",
                "Example: slurmwise diagnose 1001"})
public final class DiagnoseCommand implements Callable<Integer> {

    private final Cli cli;

    public DiagnoseCommand(Cli cli) {
        this.cli = cli;
    }

    @Parameters(index = "0", paramLabel = "JOBID", description = "Job id: 1001, an array task 4242_3, or a het component 123+1.")
    private String jobId;

    @Mixin
    private JsonOutput json;

    @Option(names = "--no-llm", description = "Word the explanation from a template, never a language model (also: SLURMWISE_NO_LLM=1).")
    private boolean noLlm;

    @Option(names = "--direct", description = "Rules and the kind's own note only: no language model, no embedding index (fastest).")
    private boolean direct;

    @Override
    public Integer call() {
        JobId id = JobId.parse(jobId);
        Slurmwise sw = cli.slurmwise(direct ? Cli.Answers.DIRECT : noLlm ? Cli.Answers.NO_LLM : Cli.Answers.FULL);
        // the model loads while the backend is asked and the rules run: ~0.3 s off a mock diagnose
        sw.retriever().prewarm();
        Diagnosis d = sw.diagnose(id);
        if (json.enabled()) {
            Json.print(cli.out(), Views.diagnosis(d, sw.backendReason()));
        } else {
            new DiagnosisRenderer(cli.style()).print(cli.out(), d, sw.backendReason());
        }
        sw.explainer().fallbackReason().ifPresent(r -> cli.err().println(cli.style().dim("slurmwise: " + r)));
        if (d instanceof Diagnosis.NotFound) {
            if (!json.enabled()) {
                cli.err().println("slurmwise: job " + id + " not found (" + sw.backendReason() + ")");
            }
            return ExitCodes.NOT_FOUND;
        }
        return ExitCodes.OK;
    }
}
