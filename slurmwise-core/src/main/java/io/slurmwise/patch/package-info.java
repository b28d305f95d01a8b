/**
 * The suggested change to a failed job's batch script: a unified diff that is printed, never applied, or the reason
 * there is none ({@link io.slurmwise.patch.Patch}), with the batch-script parser it edits.
 */
package io.slurmwise.patch;
