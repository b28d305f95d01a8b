package io.slurmwise.backend;

import io.slurmwise.config.Settings;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Finds backends with {@link ServiceLoader} and picks one: {@code auto} takes the available provider with the
 * highest rank (real when sacct is on PATH, else mock) and says which it picked and why.
 */
public final class Backends {

    /** The chosen backend and a sentence saying why it was chosen. */
    public record Selection(SlurmBackend backend, String reason) {
    }

    private Backends() {
    }

    public static Map<String, BackendProvider> providers(ClassLoader loader) {
        Map<String, BackendProvider> byName = new LinkedHashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (BackendProvider p : ServiceLoader.load(BackendProvider.class, loader)) {
            if (byName.putIfAbsent(p.name(), p) != null) {
                duplicates.add(p.name() + " (" + p.getClass().getName() + " and "
                        + byName.get(p.name()).getClass().getName() + ")");
            }
        }
        if (!duplicates.isEmpty()) {
            throw new BackendException("several backends share a name: " + String.join(", ", duplicates)
                    + "; remove one of the jars from the classpath");
        }
        return byName;
    }

    public static Selection select(Settings settings) {
        return select(settings, Backends.class.getClassLoader());
    }

    public static Selection select(Settings settings, ClassLoader loader) {
        return select(settings, loader, null);
    }

    /** @param notices where the backend tells what a query left out (see {@link BackendProvider#create(Settings, Consumer)}); may be null */
    public static Selection select(Settings settings, ClassLoader loader, Consumer<String> notices) {
        Consumer<String> tell = notices == null ? m -> { } : notices;
        Map<String, BackendProvider> providers = providers(loader);
        if (providers.isEmpty()) {
            throw new BackendUnavailableException("no slurmwise backend is on the classpath; add "
                    + "io.slurmwise:slurmwise-backend-real (a SLURM cluster) or slurmwise-backend-mock (fixtures)");
        }
        String wanted = settings.backend();
        if (!wanted.equals("auto")) {
            BackendProvider p = providers.get(wanted);
            if (p == null) {
                throw new BackendUnavailableException("backend '" + wanted + "' is unknown; available: "
                        + String.join(", ", providers.keySet()) + " (set SLURMWISE_BACKEND or --backend)");
            }
            Optional<String> why = p.unavailableReason(settings);
            if (why.isPresent()) {
                throw new BackendUnavailableException("backend '" + wanted + "' cannot run here: " + why.get());
            }
            return new Selection(p.create(settings, tell), "backend " + wanted + " (requested)");
        }
        List<BackendProvider> ranked = providers.values().stream()
                .sorted(Comparator.comparingInt(BackendProvider::autoRank).reversed())
                .collect(Collectors.toList());
        List<String> skipped = new ArrayList<>();
        for (BackendProvider p : ranked) {
            Optional<String> why = p.unavailableReason(settings);
            if (why.isEmpty()) {
                String reason = "backend " + p.name() + " (auto" + (skipped.isEmpty() ? "" : "; " + String.join("; ", skipped)) + ")";
                return new Selection(p.create(settings, tell), reason);
            }
            skipped.add(p.name() + ": " + why.get());
        }
        throw new BackendUnavailableException("no backend can run here: " + String.join("; ", skipped));
    }
}
