package io.slurmwise.agent.explain;

import io.slurmwise.config.Settings;
import io.slurmwise.config.SettingsException;
import io.slurmwise.diagnose.Explainer;
import io.slurmwise.diagnose.TemplateExplainer;
import io.slurmwise.spi.ExplainerProvider;
import io.slurmwise.spi.ProviderContext;

import java.util.Optional;

/**
 * Provides the {@code llm} explainer: the OpenAI-compatible model of SLURMWISE_LLM_BASE_URL words the explanation,
 * the template when it does not answer. Outranks core's {@code template} in {@code auto} unless SLURMWISE_NO_LLM is
 * set. Nothing is asked of the model until the first explanation.
 */
public final class LlmExplainerProvider implements ExplainerProvider {

    @Override
    public String name() {
        return "llm";
    }

    @Override
    public int autoRank() {
        return 100;
    }

    /** @throws SettingsException for a malformed SLURMWISE_LLM_TIMEOUT */
    @Override
    public Optional<String> unavailableReason(Settings settings) {
        return settings(settings).enabled() ? Optional.empty() : Optional.of("SLURMWISE_NO_LLM is set");
    }

    @Override
    public Explainer create(ProviderContext context) {
        return LlmExplainer.openAiCompatible(settings(context.settings()), new TemplateExplainer(), context.taxonomy());
    }

    private static LlmSettings settings(Settings s) {
        try {
            return LlmSettings.from(s);
        } catch (IllegalArgumentException e) {
            throw new SettingsException(e.getMessage(), e);
        }
    }
}
