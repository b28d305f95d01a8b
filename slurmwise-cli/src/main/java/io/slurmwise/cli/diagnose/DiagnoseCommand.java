package io.slurmwise.cli.diagnose;

import io.slurmwise.Slurmwise;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.UserError;
import io.slurmwise.agent.chat.McpChatTools;
import io.slurmwise.cli.chat.CommandWords;
import io.slurmwise.cli.render.DiagnosisRenderer;
import io.slurmwise.cli.render.Json;
import io.slurmwise.view.Views;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.job.JobId;
import io.slurmwise.patch.Patch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code slurmwise diagnose <jobid>}: why a job failed and what to change. */
@Command(name = "diagnose",
        header = "Explain why a job failed and what to change.", mixinStandardHelpOptions = true,
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

    @Option(names = "--direct", description = "Run the tools in this process (the default), with the knowledge base and,"
            + " unless --no-llm, the language model.")
    private boolean direct;

    @Option(names = "--rules-only", description = "Rules and the kind's own note only: no language model, no embedding"
            + " index. The fastest, fully deterministic path.")
    private boolean rulesOnly;

    @Option(names = "--mcp-server", paramLabel = "COMMAND", description = "Diagnose through this MCP server, e.g."
            + " \"slurmwise mcp\" or \"ssh login1 slurmwise mcp\": the same diagnosis, by a real MCP client.")
    private String mcpServer;

    @Option(names = "--patch", description = "Print only the suggested patch, a unified diff to review and apply"
            + " yourself: `slurmwise diagnose 1001 --patch > fix.patch`, then `patch job.sh < fix.patch`."
            + " slurmwise never applies it.")
    boolean patchOnly;

    @Option(names = "--full", description = "Show everything: the explanation, every note section with its score, the whole diff and advice.")
    private boolean full;

    /**
     * A set-aside answer is always said; a model that does not answer only when one was configured
     * (SLURMWISE_LLM_BASE_URL), else once a day: a login node without Ollama is the common case, not news.
     * {@code slurmwise doctor} always reports it.
     */
    private static boolean worthSaying(String reason, Cli cli) {
        return !reason.startsWith("no language model answered")
                || !cli.env().getOrDefault("SLURMWISE_LLM_BASE_URL", "").isBlank()
                || cli.firstTimeToday("llm-unreachable");
    }

    @Override
    public Integer call() {
        JobId id = JobId.parse(jobId);
        if (patchOnly && json.enabled()) {
            throw new UserError(ExitCodes.USAGE, "--patch prints the diff alone; --json carries it as patch.diff:"
                    + " use one of them");
        }
        if (mcpServer != null) {
            return throughMcp(id);
        }
        // the embedding model starts loading once the job is known to have failed (DiagnosisWorkflow): a running,
        // pending or completed job needs no retrieval, and the context's close waits for a load that started
        Slurmwise sw = cli.slurmwise(rulesOnly ? Cli.Answers.RULES_ONLY : noLlm ? Cli.Answers.NO_LLM : Cli.Answers.FULL);
        Diagnosis d = sw.diagnose(id);
        if (patchOnly) {
            return printPatch(d);
        }
        if (json.enabled()) {
            Json.print(cli.out(), Views.diagnosis(d, sw.backendReason()));
        } else if (d instanceof Diagnosis.NotFound nf) {
            cli.error(nf.message() + " (" + sw.backendReason() + ")");
        } else {
            new DiagnosisRenderer(cli.style(), full, sw.backend()::userName).print(cli.out(), d, sw.backendReason());
        }
        sw.explainer().fallbackReason().filter(r -> worthSaying(r, cli))
                .ifPresent(r -> cli.error(r, true));
        return d instanceof Diagnosis.NotFound ? ExitCodes.NOT_FOUND : ExitCodes.OK;
    }

    /**
     * The suggested patch alone, as a unified diff on standard output (nothing else there, so it can be redirected to
     * a file); when there is none, why, on standard error, and exit 3.
     */
    private int printPatch(Diagnosis d) {
        Optional<Patch> patch = d.<Optional<Patch>>fold(
                nf -> Optional.empty(),
                so -> so.pending() == null ? Optional.empty() : so.pending().optPatch(),
                f -> Optional.of(f.patch()));
        if (patch.isPresent() && patch.get() instanceof Patch.Suggested s) {
            cli.out().print(s.diff().endsWith("\n") ? s.diff() : s.diff() + "\n");
            cli.out().flush();
            return ExitCodes.OK;
        }
        String why = d instanceof Diagnosis.NotFound nf ? nf.message()
                : patch.filter(p -> p instanceof Patch.NotSuggested)
                        .map(p -> ((Patch.NotSuggested) p).reason())
                        .orElse("no patch applies to this job's state");
        cli.error("no patch for job " + d.jobId() + ": " + why);
        // a job that exists and has no patch is not a job not found (an outside audit: a script testing the exit
        // status of `diagnose X --patch > fix.patch` misreported it)
        return d instanceof Diagnosis.NotFound ? ExitCodes.NOT_FOUND : ExitCodes.NOTHING;
    }

    /**
     * The diagnosis from an MCP server's {@code diagnose_job} tool, through a real MCP client over stdio: the
     * server's JSON as it sent it (the same JSON as {@code --json} in this process), or its status line.
     */
    private int throughMcp(JobId id) {
        if (rulesOnly || direct) {
            throw new UserError(ExitCodes.USAGE, "--mcp-server diagnoses on the server; it does not combine with "
                    + (rulesOnly ? "--rules-only" : "--direct") + " (set SLURMWISE_NO_LLM on the server for the template)");
        }
        Object answer;
        try (McpChatTools tools = McpChatTools.start(CommandWords.split(mcpServer), java.time.Duration.ofSeconds(120))) {
            answer = tools.call("diagnose_job", java.util.Map.of("job_id", id.toString()));
        } catch (IllegalStateException e) {
            throw new UserError(ExitCodes.BACKEND, e.getMessage());
        }
        if (!(answer instanceof com.fasterxml.jackson.databind.JsonNode node)) {
            throw new UserError(ExitCodes.BACKEND, "the MCP server `" + mcpServer + "` answered diagnose_job with"
                    + " something that is not JSON: " + answer);
        }
        if (patchOnly) {
            // a failed job's patch, or a pending one's that can never start (as printPatch reads the diagnosis)
            com.fasterxml.jackson.databind.JsonNode patch = node.path("patch").isObject() ? node.path("patch")
                    : node.path("pending").path("patch");
            if ("suggested".equals(patch.path("status").asText())) {
                String diff = patch.path("diff").asText();
                cli.out().print(diff.endsWith("\n") ? diff : diff + "\n");
                cli.out().flush();
                return ExitCodes.OK;
            }
            // the reasons printPatch gives: the patch's own, the server's not-found message, else the state's
            String why = patch.path("reason").isTextual() ? patch.path("reason").asText()
                    : "not_found".equals(node.path("status").asText()) && node.path("message").isTextual()
                    ? node.path("message").asText() : "no patch applies to this job's state";
            cli.error("no patch for job " + id + ": " + why);
            return "not_found".equals(node.path("status").asText()) ? ExitCodes.NOT_FOUND : ExitCodes.NOTHING;
        }
        if (json.enabled()) {
            Json.print(cli.out(), node);
        } else {
            new McpDiagnosisText(cli.style(), full).print(cli.out(), node, mcpServer);
        }
        return "not_found".equals(node.path("status").asText()) ? ExitCodes.NOT_FOUND : ExitCodes.OK;
    }
}
