package io.slurmwise.backend;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A read of the cluster made when first asked and kept for the rest of one diagnosis: most diagnoses never need the
 * QOS table or the user's associations, and one that needs them in the patch and in the fixes asks once.
 * Thread-safe; the read must not answer null (map "unknown" to an empty value first).
 *
 * <pre>{@code
 * Supplier<List<Qos>> qos = Lazy.of(backend::qos);   // nothing asked yet
 * qos.get(); qos.get();                              // one sacctmgr run
 * }</pre>
 */
public final class Lazy<T> implements Supplier<T> {

    private final Supplier<? extends T> read;
    private T value;

    private Lazy(Supplier<? extends T> read) {
        this.read = read;
    }

    /** {@code read} asked once, when first needed; already lazy, it is returned as it is. */
    @SuppressWarnings("unchecked")
    public static <T> Supplier<T> of(Supplier<? extends T> read) {
        Objects.requireNonNull(read, "read");
        return read instanceof Lazy<?> l ? (Supplier<T>) l : new Lazy<>(read);
    }

    @Override
    public synchronized T get() {
        if (value == null) {
            value = Objects.requireNonNull(read.get(), "a lazy read answered null");
        }
        return value;
    }
}
