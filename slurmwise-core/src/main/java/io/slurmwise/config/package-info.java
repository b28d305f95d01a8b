/**
 * Every setting slurmwise reads from the environment, in one immutable {@link io.slurmwise.config.Settings} record that
 * flags override with {@code with*} copies, {@link io.slurmwise.config.SettingsException} for a setting that is
 * invalid or names a provider that is not there, and {@link io.slurmwise.config.Providers}: the one rule by which a
 * setting picks a part (backend, retriever, explainer) from the {@link io.slurmwise.config.Provider}s on the
 * classpath, by name or, for {@code auto}, the available one of highest rank.
 */
package io.slurmwise.config;
