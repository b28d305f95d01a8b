/**
 * Every setting slurmwise reads from the environment, in one immutable {@link io.slurmwise.config.Settings} record that
 * flags override with {@code with*} copies, and {@link io.slurmwise.config.SettingsException} for a setting that is
 * invalid or names a provider that is not there.
 */
package io.slurmwise.config;
