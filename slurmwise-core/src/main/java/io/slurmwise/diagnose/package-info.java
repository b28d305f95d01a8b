/**
 * One job's diagnosis: the {@link io.slurmwise.diagnose.DiagnosisWorkflow} looks the job up, decides whether there is
 * anything to diagnose ({@link io.slurmwise.job.Outcome}), runs the rules, retrieves fix notes
 * ({@link io.slurmwise.diagnose.Retriever}), words the explanation ({@link io.slurmwise.diagnose.Explainer}) and
 * suggests a patch, answering with the sealed {@link io.slurmwise.diagnose.Diagnosis}: not found, a status, or a
 * failure explained.
 */
package io.slurmwise.diagnose;
