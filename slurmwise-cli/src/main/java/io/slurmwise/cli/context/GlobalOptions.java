package io.slurmwise.cli.context;

import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The options every command takes, before or after its name ({@code slurmwise --no-color diagnose 1001} and
 * {@code slurmwise diagnose 1001 --no-color}): a mixin of the root command whose options are inherited by every
 * subcommand, so picocli fills this one instance wherever they appear. {@link Cli} reads it when a command runs.
 */
public final class GlobalOptions {

    @Option(names = "--backend", scope = ScopeType.INHERIT, paramLabel = "NAME",
            description = "Backend to use: auto, real, mock (overrides SLURMWISE_BACKEND).")
    private String backend;

    @Option(names = "--no-color", scope = ScopeType.INHERIT, description = "Never use colour (also: NO_COLOR).")
    private boolean noColor;

    /** The backend named by {@code --backend}, or null to keep SLURMWISE_BACKEND. */
    public String backend() {
        return backend;
    }

    public boolean noColor() {
        return noColor;
    }
}
