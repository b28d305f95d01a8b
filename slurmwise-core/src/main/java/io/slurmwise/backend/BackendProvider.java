package io.slurmwise.backend;

import io.slurmwise.config.Settings;
import io.slurmwise.config.Provider;

import java.util.function.Consumer;


/**
 * Service provider for a {@link SlurmBackend}, listed in
 * {@code META-INF/services/io.slurmwise.backend.BackendProvider} of its module. Chosen by the one selection rule of
 * {@link io.slurmwise.config.Providers} (by name, or the available one of highest rank for {@code auto}): its
 * {@link #name()} is what users select with SLURMWISE_BACKEND or --backend.
 */
public interface BackendProvider extends Provider {

    SlurmBackend create(Settings settings);

    /**
     * As {@link #create(Settings)}, with a place to tell the user what a query left out (rows the cluster printed
     * that could not be read), a line each; backends without such news ignore it.
     */
    default SlurmBackend create(Settings settings, Consumer<String> notices) {
        return create(settings);
    }
}
