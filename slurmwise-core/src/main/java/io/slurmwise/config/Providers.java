package io.slurmwise.config;


import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * Finds providers with {@link ServiceLoader} and picks one: by name, or for {@code auto} the available provider with
 * the highest rank. Says loudly what is wrong when none is there, when two share a name, or when the named one is
 * missing or cannot run, and what to do about it.
 *
 * <pre>{@code
 * Providers.Selection<RetrieverProvider> s = Providers.select(RetrieverProvider.class, "retriever",
 *         "SLURMWISE_RETRIEVER", settings.retriever(), settings, loader);
 * Retriever r = s.provider().create(context);
 * }</pre>
 */
public final class Providers {

    /** The chosen provider and a sentence saying why it was chosen. */
    public record Selection<P extends Provider>(P provider, String reason) {
    }

    private Providers() {
    }

    /**
     * Every provider of {@code type} by name.
     *
     * @throws SettingsException when two providers share a name (two jars that should not both be there)
     */
    public static <P extends Provider> Map<String, P> all(Class<P> type, String what, ClassLoader loader) {
        return all(type, what, loader, SettingsException::new);
    }

    /** As {@link #all(Class, String, ClassLoader)}, failing with the caller's exception type. */
    public static <P extends Provider> Map<String, P> all(Class<P> type, String what, ClassLoader loader,
                                                         Function<String, ? extends RuntimeException> failure) {
        Map<String, P> byName = new LinkedHashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (P p : ServiceLoader.load(type, loader)) {
            P before = byName.putIfAbsent(p.name(), p);
            if (before != null) {
                duplicates.add(p.name() + " (" + p.getClass().getName() + " and " + before.getClass().getName() + ")");
            }
        }
        if (!duplicates.isEmpty()) {
            throw failure.apply("several " + what + "s share a name: " + String.join(", ", duplicates)
                    + "; remove one of the jars from the classpath");
        }
        return byName;
    }

    /**
     * @param what     the part's name in messages ("retriever")
     * @param variable the setting that chooses it ("SLURMWISE_RETRIEVER")
     * @param wanted   a provider name, or {@code auto}
     * @throws SettingsException when no provider is there, the named one is not, or it cannot run here
     */
    public static <P extends Provider> Selection<P> select(Class<P> type, String what, String variable, String wanted,
                                                           Settings settings, ClassLoader loader) {
        return select(type, what, variable, wanted, settings, loader, "add io.slurmwise:slurmwise-core, which provides"
                + " the default one", SettingsException::new, SettingsException::new);
    }

    /**
     * The one selection rule for every kind of provider (retrievers, explainers, backends, stores), failing with the
     * caller's exception types: {@code missing} for "none can run here", {@code invalid} for a classpath with two
     * providers of one name.
     *
     * @param whenNone what to add to the classpath when no provider of {@code type} is there
     */
    public static <P extends Provider> Selection<P> select(Class<P> type, String what, String variable, String wanted,
                                                           Settings settings, ClassLoader loader, String whenNone,
                                                           Function<String, ? extends RuntimeException> missing,
                                                           Function<String, ? extends RuntimeException> invalid) {
        Map<String, P> providers = all(type, what, loader, invalid);
        if (providers.isEmpty()) {
            throw missing.apply("no slurmwise " + what + " is on the classpath (no " + type.getName()
                    + " in META-INF/services); " + whenNone);
        }
        if (!"auto".equals(wanted)) {
            P p = providers.get(wanted);
            if (p == null) {
                throw missing.apply(what + " '" + wanted + "' is unknown; available: "
                        + String.join(", ", providers.keySet()) + " (set " + variable + "; a provider comes with its"
                        + " module's jar on the classpath)");
            }
            Optional<String> why = p.unavailableReason(settings);
            if (why.isPresent()) {
                throw missing.apply(what + " '" + wanted + "' cannot run here: " + why.get());
            }
            return new Selection<>(p, what + " " + wanted + " (requested)");
        }
        List<P> ranked = new ArrayList<>(providers.values());
        ranked.sort(Comparator.comparingInt(Provider::autoRank).reversed());
        List<String> skipped = new ArrayList<>();
        for (P p : ranked) {
            Optional<String> why = p.unavailableReason(settings);
            if (why.isEmpty()) {
                return new Selection<>(p, what + " " + p.name() + " (auto" + (skipped.isEmpty() ? ""
                        : "; " + String.join("; ", skipped)) + ")");
            }
            skipped.add(p.name() + ": " + why.get());
        }
        throw missing.apply("no " + what + " can run here: " + String.join("; ", skipped));
    }
}
