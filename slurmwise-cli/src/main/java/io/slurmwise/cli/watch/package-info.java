/**
 * {@code slurmwise watch}: diagnoses every job that failed since the last poll, once each, with its state in
 * SLURMWISE_HOME.
 */
package io.slurmwise.cli.watch;
