/**
 * The read-only cluster a diagnosis asks: the {@link io.slurmwise.backend.SlurmBackend} interface (job records, logs,
 * batch scripts, partitions), the {@link io.slurmwise.backend.BackendProvider} service interface the mock and real
 * backends implement, selection by SLURMWISE_BACKEND ({@link io.slurmwise.backend.Backends}), and log tails read once
 * with a bound.
 */
package io.slurmwise.backend;
