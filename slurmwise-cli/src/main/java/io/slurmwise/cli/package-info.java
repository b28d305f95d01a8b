/**
 * The {@code slurmwise} command's root: {@link io.slurmwise.cli.Main}, the root command with its subcommands, and the
 * factory that hands every command the run's {@link io.slurmwise.cli.context.Cli} context. Nothing imports this
 * package: commands never reach back to the root.
 */
package io.slurmwise.cli;
