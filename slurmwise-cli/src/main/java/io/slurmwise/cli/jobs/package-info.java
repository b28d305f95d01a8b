/**
 * {@code slurmwise jobs}: lists jobs of a window from accounting, by state, user and partition.
 */
package io.slurmwise.cli.jobs;
