/**
 * What SLURM says about a job, parsed once into values that are valid by construction: {@link
 * io.slurmwise.job.JobId}, {@link io.slurmwise.job.JobState}, {@link io.slurmwise.job.ExitCode}, {@link
 * io.slurmwise.job.DataSize}, the {@link io.slurmwise.job.JobRecord} that holds them, sacct's output reader, and the
 * one {@link io.slurmwise.job.Outcome} of a job (failed, cancelled, preempted, pending, running, completed) that stats,
 * watch, jobs and diagnose all use.
 */
package io.slurmwise.job;
