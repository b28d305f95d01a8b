/**
 * The stats aggregate on Apache Spark, for accounting histories beyond one machine. Exports are cut into splits
 * that never separate a job's rows ({@link io.slurmwise.spark.ExportSplit}), read as blocks of whole jobs
 * ({@link io.slurmwise.spark.JobRows}) and aggregated by {@link io.slurmwise.spark.FleetAggregator} with
 * slurmwise-core's own parser and {@link io.slurmwise.stats.FleetStats}; the partial aggregates travel as their exact
 * bytes and merge into the document {@code slurmwise stats --input --json} prints.
 */
package io.slurmwise.spark;
