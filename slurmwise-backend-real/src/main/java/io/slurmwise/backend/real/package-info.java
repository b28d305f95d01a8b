/**
 * The {@code real} backend: a read-only SLURM client that runs {@code sacct}, {@code scontrol show},
 * {@code sinfo} and {@code squeue} through one allowlist ({@link io.slurmwise.backend.real.Allowlist}, enforced by
 * {@link io.slurmwise.backend.real.CommandRunner}, the only class that starts processes), with timeouts and bounded
 * output, and finds each job's log files as slurmstepd names them.
 */
package io.slurmwise.backend.real;
