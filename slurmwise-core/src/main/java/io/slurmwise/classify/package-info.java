/**
 * The rules that decide a failed job's cause: the {@link io.slurmwise.classify.Classifier} reads the accounting facts
 * and the log tails, matches the taxonomy's signatures and returns a {@link io.slurmwise.classify.Finding} with its
 * confidence and the {@link io.slurmwise.classify.Evidence} lines that decided it. A language model never decides here.
 */
package io.slurmwise.classify;
