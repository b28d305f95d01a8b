package io.slurmwise.backend;

import io.slurmwise.config.Settings;
import io.slurmwise.config.Providers;

import java.util.Map;
import java.util.function.Consumer;

/**
 * Finds backends with {@link java.util.ServiceLoader} and picks one by the rule every provider shares
 * ({@link Providers}): {@code auto} takes the available provider with the highest rank (real when sacct is on PATH,
 * else mock) and says which it picked and why.
 */
public final class Backends {

    /** The chosen backend and a sentence saying why it was chosen. */
    public record Selection(SlurmBackend backend, String reason) {
    }

    private Backends() {
    }

    public static Map<String, BackendProvider> providers(ClassLoader loader) {
        return Providers.all(BackendProvider.class, "backend", loader, BackendException::new);
    }

    public static Selection select(Settings settings) {
        return select(settings, Backends.class.getClassLoader());
    }

    public static Selection select(Settings settings, ClassLoader loader) {
        return select(settings, loader, null);
    }

    /** @param notices where the backend tells what a query left out (see {@link BackendProvider#create(Settings, Consumer)}); may be null */
    public static Selection select(Settings settings, ClassLoader loader, Consumer<String> notices) {
        Providers.Selection<BackendProvider> chosen = Providers.select(BackendProvider.class, "backend",
                "SLURMWISE_BACKEND or --backend", settings.backend(), settings, loader,
                "add io.slurmwise:slurmwise-backend-real (a SLURM cluster) or slurmwise-backend-mock (fixtures)",
                BackendUnavailableException::new, BackendException::new);
        return new Selection(chosen.provider().create(settings, notices == null ? m -> { } : notices), chosen.reason());
    }
}
