package io.slurmwise.kb;

import io.slurmwise.kb.spi.KbException;
import io.slurmwise.kb.spi.StoreConfig;
import io.slurmwise.kb.spi.VectorStoreProvider;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Finds the vector stores with {@link ServiceLoader} and orders the configured ones, best first: the knowledge base
 * opens the first that answers. Says loudly when none is on the classpath or two share a name.
 */
public final class VectorStores {

    private VectorStores() {
    }

    /** Every store provider on the classpath, by name. */
    public static Map<String, VectorStoreProvider> all() {
        Map<String, VectorStoreProvider> byName = new LinkedHashMap<>();
        for (VectorStoreProvider p : ServiceLoader.load(VectorStoreProvider.class, VectorStores.class.getClassLoader())) {
            VectorStoreProvider before = byName.putIfAbsent(p.name(), p);
            if (before != null) {
                throw new KbException("two vector stores are named '" + p.name() + "' (" + p.getClass().getName()
                        + " and " + before.getClass().getName() + "); remove one of the jars from the classpath");
            }
        }
        if (byName.isEmpty()) {
            throw new KbException("no vector store is on the classpath (no " + VectorStoreProvider.class.getName()
                    + " in META-INF/services); slurmwise-kb provides the embedded one: is its jar complete?");
        }
        return byName;
    }

    /** The stores these settings configure, highest rank first (e.g. chroma, then embedded). */
    public static List<VectorStoreProvider> candidates(StoreConfig config) {
        List<VectorStoreProvider> out = new ArrayList<>();
        for (VectorStoreProvider p : all().values()) {
            if (p.unavailableReason(config).isEmpty()) {
                out.add(p);
            }
        }
        out.sort(Comparator.comparingInt(VectorStoreProvider::autoRank).reversed());
        if (out.isEmpty()) {
            throw new KbException("no vector store is configured: " + String.join("; ", all().values().stream()
                    .map(p -> p.name() + ": " + p.unavailableReason(config).orElse("")).toList()));
        }
        return out;
    }
}
