/**
 * The providers core always ships, so that a diagnosis works with core alone: the {@code notes} retriever (the
 * finding's own note) and the {@code template} explainer. Other modules' providers outrank them in {@code auto}.
 */
package io.slurmwise.defaults;
