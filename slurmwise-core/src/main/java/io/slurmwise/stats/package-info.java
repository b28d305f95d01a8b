/**
 * What failures cost a fleet: {@link io.slurmwise.stats.FleetScan} streams a window's jobs through the rules into the
 * mergeable {@link io.slurmwise.stats.FleetStats}, which counts jobs by {@link io.slurmwise.job.Outcome} and failed
 * jobs' wasted GPU/CPU-hours and estimated energy ({@link io.slurmwise.stats.EnergyModel}) by kind, partition, user and
 * day into a {@link io.slurmwise.stats.FleetReport}.
 */
package io.slurmwise.stats;
