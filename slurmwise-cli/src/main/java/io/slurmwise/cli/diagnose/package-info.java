/**
 * {@code slurmwise diagnose}: why a job failed and what to change, as a panel or {@code --json}.
 */
package io.slurmwise.cli.diagnose;
