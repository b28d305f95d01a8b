package io.slurmwise.backend.real;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Answers of a slow, rarely changing query (an account's allocation, a user's associations) kept for a while: a watch
 * over many jobs of one account asks once, and a long-lived process (the MCP server, {@code watch}) asks again once the
 * answer is older than {@code age}, so a change made while it runs (an allocation renewed, a QOS granted) is seen.
 *
 * <pre>{@code
 * AgedReads<String, Optional<AccountUsage>> usage = new AgedReads<>(Duration.ofMinutes(5), System::nanoTime);
 * usage.get("genomics", a -> AccountUsage.parse(slurm.shares(a), a));
 * }</pre>
 *
 * @param <K> what is asked about
 * @param <V> the answer
 */
final class AgedReads<K, V> {

    private record Read<V>(V value, long readAt) {
    }

    private final long ageNanos;
    private final LongSupplier nanos;
    private final Map<K, Read<V>> reads = new ConcurrentHashMap<>();

    AgedReads(Duration age, LongSupplier nanos) {
        this.ageNanos = age.toNanos();
        this.nanos = nanos;
    }

    /** The answer for {@code key}: the last one while younger than the age, else {@code read}'s (a failure is not kept). */
    V get(K key, Function<K, V> read) {
        long now = nanos.getAsLong();
        Read<V> known = reads.get(key);
        if (known != null && now - known.readAt() < ageNanos) {
            return known.value();
        }
        V value = read.apply(key);
        reads.put(key, new Read<>(value, now));
        return value;
    }
}
