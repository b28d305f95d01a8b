package io.slurmwise.cli;

import io.slurmwise.cli.chat.ChatCommand;
import io.slurmwise.cli.classify.ClassifyCommand;
import io.slurmwise.cli.context.GlobalOptions;
import io.slurmwise.cli.doctor.DoctorCommand;
import io.slurmwise.cli.diagnose.DiagnoseCommand;
import io.slurmwise.cli.eval.EvalCommand;
import io.slurmwise.cli.jobs.JobsCommand;
import io.slurmwise.cli.kb.KbCommand;
import io.slurmwise.cli.mcp.McpCommand;
import io.slurmwise.cli.stats.StatsCommand;
import io.slurmwise.cli.watch.WatchCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;

import java.util.List;

/** The root command: its subcommands, help texts and exit codes; its options ({@link GlobalOptions}) apply to every subcommand. */
@Command(name = "slurmwise",
        resourceBundle = "io.slurmwise.cli.options",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Why did my SLURM job fail, what do I change, and what do failures cost. Read-only:",
                "never submits, cancels, requeues or edits anything."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:ok",
            "1:internal error (a bug; rerun with SLURMWISE_DEBUG=1 and report it)",
            "2:usage error (unknown option, malformed job id, bad time)",
            "3:job not found in the cluster's accounting",
            "4:backend unavailable (SLURM commands missing or daemons down)",
            "5:input file missing or unreadable",
            "6:invalid configuration (knowledge note, environment variable, site file)",
            "7:nothing of what was asked (diagnose --patch of a job with no patch)"},
        footerHeading = "%nEnvironment:%n",
        footer = {
            "  SLURMWISE_BACKEND    auto (real if sacct is on PATH, else mock), real, mock",
            "  SLURMWISE_HOME       state and indexes (default ~/.slurmwise)",
            "  SLURMWISE_KNOWLEDGE  site notes replacing or extending the bundled ones",
            "  SLURMWISE_MOCK_DIR   mock fixtures (sacct.psv, logs/, scripts/)",
            "  SLURMWISE_LOG_TAIL   lines read from the end of each log (default 300)",
            "  SLURMWISE_LOG_TIMEOUT  seconds a log may give no data before its read is given up (default 10)",
            "  SLURMWISE_MCP_CALL_TIMEOUT  seconds an MCP tool call may take before it is answered with an error (default 300)",
            "  SLURMWISE_NO_LLM     never ask a language model to word explanations",
            "  SLURMWISE_LLM_BASE_URL, SLURMWISE_LLM_MODEL  OpenAI-compatible endpoint",
            "  SLURMWISE_ENERGY_FILE  site energy settings for stats (watts per GPU model/partition, PUE, ...)",
            "  SLURMWISE_EMBEDDINGS minilm (default, all-minilm-l6-v2-q), all-minilm-l6-v2, hash",
            "  SLURMWISE_CHROMA_URL a Chroma server for the knowledge index (else a file under SLURMWISE_HOME)",
            "  SLURMWISE_CHROMA_TOKEN  its token, if it is secured (SLURMWISE_CHROMA_TOKEN_HEADER: X-Chroma-Token or Authorization)",
            "  NO_COLOR             disables colour"})
public final class SlurmwiseCommand {

    /**
     * The subcommands, in the order help lists them. Registered by {@link Main} (not in the annotation) so that a
     * run builds the model of the one subcommand it runs: picocli's reflection over the whole tree was a fifth of
     * a short command's start-up.
     */
    public static final List<Class<?>> SUBCOMMANDS = List.of(JobsCommand.class, DiagnoseCommand.class,
            ClassifyCommand.class, StatsCommand.class, EvalCommand.class, WatchCommand.class, KbCommand.class,
            McpCommand.class, ChatCommand.class, DoctorCommand.class, HelpCommand.class);

    /**
     * The subcommands a command line needs: the one it runs, when the first argument that is not a root option
     * names a subcommand other than {@code help}; none for {@code --version} alone; all of them otherwise (no
     * subcommand, {@code help}, a mistyped name), for help texts and suggestions.
     */
    static List<Class<?>> needed(String[] args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            return List.of();
        }
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--backend")) {
                i++; // its value
                continue;
            }
            if (a.startsWith("-")) {
                continue;
            }
            for (Class<?> c : SUBCOMMANDS) {
                Command command = c.getAnnotation(Command.class);
                if (c != HelpCommand.class && command != null
                        && (command.name().equals(a) || List.of(command.aliases()).contains(a))) {
                    return List.of(c);
                }
            }
            break;
        }
        return SUBCOMMANDS;
    }

    /** --backend and --no-color, inherited by every subcommand. */
    @Mixin
    private GlobalOptions options;
}
