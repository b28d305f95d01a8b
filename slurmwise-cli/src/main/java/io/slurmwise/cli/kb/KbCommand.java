package io.slurmwise.cli.kb;

import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.ExitCodes;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code slurmwise kb}: the knowledge base of fix notes (build, search, list, show). */
@Command(name = "kb", mixinStandardHelpOptions = true,
        description = {"The knowledge base: the fix notes in knowledge/ (and SLURMWISE_KNOWLEDGE), chunked by section,",
                "embedded in-process (all-MiniLM-L6-v2) and stored under SLURMWISE_HOME or in Chroma.",
                "Example: slurmwise kb search \"CUDA out of memory\" -k 3"},
        subcommands = {KbBuildCommand.class, KbSearchCommand.class, KbListCommand.class, KbShowCommand.class})
public final class KbCommand implements Callable<Integer> {

    private final Cli cli;

    public KbCommand(Cli cli) {
        this.cli = cli;
    }

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        cli.err().println("slurmwise kb: name a subcommand: build, search, list or show");
        spec.commandLine().usage(cli.err());
        return ExitCodes.USAGE;
    }
}
