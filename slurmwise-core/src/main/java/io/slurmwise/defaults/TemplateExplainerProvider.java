package io.slurmwise.defaults;

import io.slurmwise.config.Settings;
import io.slurmwise.diagnose.Explainer;
import io.slurmwise.diagnose.TemplateExplainer;
import io.slurmwise.spi.ExplainerProvider;
import io.slurmwise.spi.ProviderContext;

import java.util.Optional;

/** The explainer core always has: a fixed template words the rules' finding. */
public final class TemplateExplainerProvider implements ExplainerProvider {

    @Override
    public String name() {
        return "template";
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
    public Explainer create(ProviderContext context) {
        return new TemplateExplainer();
    }
}
