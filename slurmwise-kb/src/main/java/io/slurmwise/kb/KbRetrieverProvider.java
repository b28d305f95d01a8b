package io.slurmwise.kb;

import io.slurmwise.kb.spi.KbException;
import io.slurmwise.config.Settings;
import io.slurmwise.config.SettingsException;
import io.slurmwise.diagnose.Retriever;
import io.slurmwise.spi.ProviderContext;
import io.slurmwise.spi.RetrieverProvider;

import java.util.Optional;

/**
 * Provides the {@code kb} retriever: the knowledge base as SLURMWISE_EMBEDDINGS and SLURMWISE_CHROMA_URL say, opened
 * on the first retrieval (so wiring a facade never loads the model). Outranks core's {@code notes} in {@code auto}.
 */
public final class KbRetrieverProvider implements RetrieverProvider {

    @Override
    public String name() {
        return "kb";
    }

    @Override
    public int autoRank() {
        return 100;
    }

    @Override
    public Optional<String> unavailableReason(Settings settings) {
        return Optional.empty();
    }

    /**
     * The knowledge base's settings are read on the first retrieval, so that commands that never retrieve ({@code jobs})
     * do not depend on them; an unknown SLURMWISE_EMBEDDINGS value or token header is then a
     * {@link SettingsException}, not a reason to fall back.
     */
    @Override
    public Retriever create(ProviderContext context) {
        return new KbRetriever(() -> KnowledgeBase.open(context.taxonomy(), config(context), context.notices()),
                context.notices());
    }

    private static KbConfig config(ProviderContext context) {
        try {
            return KbConfig.from(context.settings());
        } catch (KbException e) {
            throw new SettingsException(e.getMessage(), e);
        }
    }
}
