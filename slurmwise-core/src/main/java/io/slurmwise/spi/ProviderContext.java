package io.slurmwise.spi;

import io.slurmwise.config.Settings;
import io.slurmwise.taxonomy.Taxonomy;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a provider gets to build its part from: the settings, the notes every part shares, and where to tell the
 * user something once (a fallback, a first index build).
 *
 * @param notices told things worth a line on stderr, never on stdout
 */
public record ProviderContext(Settings settings, Taxonomy taxonomy, Consumer<String> notices) {

    public ProviderContext {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(taxonomy, "taxonomy");
        notices = notices == null ? m -> { } : notices;
    }
}
