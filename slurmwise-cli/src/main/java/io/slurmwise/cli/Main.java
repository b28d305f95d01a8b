package io.slurmwise.cli;

import io.slurmwise.backend.BackendException;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.GlobalOptions;
import io.slurmwise.cli.context.UserError;
import io.slurmwise.config.SettingsException;
import io.slurmwise.job.InvalidJobIdException;
import io.slurmwise.taxonomy.TaxonomyException;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Entry point of the {@code slurmwise} command. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = run(args, out, err, System.getenv(), System.console() != null);
        System.exit(code);
    }

    /** Runs one command line; returns its exit code. Used by tests with their own streams and environment. */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env, boolean terminal) {
        GlobalOptions options = new GlobalOptions();
        try (Cli cli = new Cli(out, err, env, terminal, options)) {
            CommandLine cmd = commandLine(cli, options, SlurmwiseCommand.needed(args));
            return cmd.execute(args);
        }
    }

    /**
     * The whole command tree (a run builds only the subcommands it needs), for tools that document it (the shell completion and the man
     * page of the release archives); nothing is executed, so the context's streams and environment stay unused.
     */
    public static CommandLine model() {
        PrintWriter sink = new PrintWriter(new StringWriter());
        GlobalOptions options = new GlobalOptions();
        return commandLine(new Cli(sink, sink, Map.of(), false, options), options);
    }

    static CommandLine commandLine(Cli cli, GlobalOptions options) {
        return commandLine(cli, options, SlurmwiseCommand.SUBCOMMANDS);
    }

    /** The root with the given subcommands (a run's {@link SlurmwiseCommand#needed}, or all of them). */
    static CommandLine commandLine(Cli cli, GlobalOptions options, List<Class<?>> subcommands) {
        CliFactory factory = new CliFactory(cli, options);
        CommandLine cmd = new CommandLine(SlurmwiseCommand.class, factory);
        for (Class<?> sub : subcommands) {
            cmd.addSubcommand(new CommandLine(sub, factory));
        }
        cmd.setOut(cli.out());
        cmd.setErr(cli.err());
        cmd.setColorScheme(CommandLine.Help.defaultColorScheme(cli.style().enabled()
                ? CommandLine.Help.Ansi.ON : CommandLine.Help.Ansi.OFF));
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setUsageHelpWidth(Math.max(55, cli.width()));
        cmd.setExecutionExceptionHandler((ex, commandLine, parseResult) -> handle(ex, cli));
        cmd.setParameterExceptionHandler((ex, args) -> {
            cli.error(ex.getMessage());
            // a mistyped command or option: picocli's nearest names ("Did you mean: diagnose?")
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, cli.err());
            cli.err().println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return ExitCodes.USAGE;
        });
        return cmd;
    }

    private static int handle(Exception ex, Cli cli) {
        Throwable t = ex;
        int code;
        if (t instanceof UserError u) {
            code = u.exitCode();
        } else if (t instanceof InvalidJobIdException) {
            code = ExitCodes.USAGE;
        } else if (t instanceof BackendException) {
            code = ExitCodes.BACKEND;
        } else if (t instanceof TaxonomyException || t instanceof SettingsException) {
            code = ExitCodes.CONFIG;
        } else if (t instanceof IllegalArgumentException) {
            code = ExitCodes.USAGE;
        } else {
            code = ExitCodes.INTERNAL;
        }
        if (code == ExitCodes.INTERNAL) {
            cli.error("internal error: " + t);
            if (cli.env().containsKey("SLURMWISE_DEBUG")) {
                StringWriter sw = new StringWriter();
                t.printStackTrace(new PrintWriter(sw));
                cli.err().print(sw);
            } else {
                cli.err().println("This is a bug. Rerun with SLURMWISE_DEBUG=1 for the stack trace and report it.");
            }
        } else {
            cli.error(t.getMessage());
        }
        cli.err().flush();
        return code;
    }
}
