package io.slurmwise.defaults;

import io.slurmwise.config.Settings;
import io.slurmwise.diagnose.NoteLookupRetriever;
import io.slurmwise.diagnose.Retriever;
import io.slurmwise.spi.ProviderContext;
import io.slurmwise.spi.RetrieverProvider;

import java.util.Optional;

/** The retriever core always has: the Fixes and What to check sections of the finding's own note. */
public final class NotesRetrieverProvider implements RetrieverProvider {

    @Override
    public String name() {
        return "notes";
    }

    @Override
    public int autoRank() {
        return 0;
    }

    @Override
    public Optional<String> unavailableReason(Settings settings) {
        return Optional.empty();
    }

    @Override
    public Retriever create(ProviderContext context) {
        return new NoteLookupRetriever();
    }
}
