/**
 * {@code slurmwise classify}: the rules over log files of one job, without any cluster.
 */
package io.slurmwise.cli.classify;
