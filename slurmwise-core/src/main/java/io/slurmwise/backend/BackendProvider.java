package io.slurmwise.backend;

import io.slurmwise.config.Settings;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * Service provider for a {@link SlurmBackend}, listed in
 * {@code META-INF/services/io.slurmwise.backend.BackendProvider} of its module.
 */
public interface BackendProvider {

    /** The name users select with SLURMWISE_BACKEND or --backend. */
    String name();

    /** Why this backend cannot run here (e.g. "sacct is not on PATH"), or empty when it can. */
    Optional<String> unavailableReason(Settings settings);

    /** Rank in {@code auto} selection: the available provider with the highest rank wins. */
    int autoRank();

    SlurmBackend create(Settings settings);

    /**
     * As {@link #create(Settings)}, with a place to tell the user what a query left out (rows the cluster printed
     * that could not be read), a line each; backends without such news ignore it.
     */
    default SlurmBackend create(Settings settings, Consumer<String> notices) {
        return create(settings);
    }
}
