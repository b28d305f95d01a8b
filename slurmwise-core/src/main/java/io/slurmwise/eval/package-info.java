/**
 * Scoring the rules and the fix-note retrieval on labeled cases (the bundled benchmark or any file in its format):
 * the case file format, the frozen splits, and the report {@code slurmwise eval} prints.
 */
package io.slurmwise.eval;
