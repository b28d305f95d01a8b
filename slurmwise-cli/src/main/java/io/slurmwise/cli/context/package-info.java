/**
 * What every command shares: the {@link io.slurmwise.cli.context.Cli} context (streams, environment, terminal style,
 * the run's one wiring of the facade), the shared options as picocli mixins ({@link
 * io.slurmwise.cli.context.GlobalOptions}, {@link io.slurmwise.cli.context.JsonOutput}), the exit codes and the one-line
 * user error.
 */
package io.slurmwise.cli.context;
