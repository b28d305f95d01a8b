package io.slurmwise.config;


import java.util.Optional;

/**
 * What every slurmwise provider says about itself, so that {@link Providers} can pick one by name or, for
 * {@code auto}, the available one with the highest rank.
 */
public interface Provider {

    /** The name a setting selects it by, e.g. {@code kb} for SLURMWISE_RETRIEVER=kb. */
    String name();

    /** Rank in {@code auto} selection: the available provider with the highest rank wins. */
    int autoRank();

    /** Why it cannot run with these settings (e.g. "SLURMWISE_NO_LLM is set"), or empty when it can. */
    Optional<String> unavailableReason(Settings settings);
}
