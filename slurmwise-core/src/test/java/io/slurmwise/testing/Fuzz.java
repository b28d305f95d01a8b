package io.slurmwise.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The one property of the parser fuzz tests (property-based: generated inputs, one property checked on each): a parser returns a value or throws its own documented exception with a
 * message, never anything else (no NullPointerException, NumberFormatException, IndexOutOfBoundsException,
 * ArithmeticException, StackOverflowError...). Counts the inputs each parser passed; {@link #record} prints them and appends
 * them to {@code target/fuzz-counts.tsv} (the figures RELIABILITY.md quotes).
 */
public final class Fuzz {

    /** A parse that may throw anything. */
    @FunctionalInterface
    public interface Parse {
        void run() throws Exception;
    }

    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    private Fuzz() {
    }

    /** The parse must not throw at all. */
    public static void neverThrows(String parser, Object input, Parse parse) {
        rejectsOnlyWith(parser, null, input, parse);
    }

    /**
     * The parse returns, or throws exactly {@code documented} (or a subclass in io.slurmwise) with a non-blank
     * message. JDK subclasses of the documented type (NumberFormatException is an IllegalArgumentException) fail.
     */
    public static void rejectsOnlyWith(String parser, Class<? extends Exception> documented, Object input, Parse parse) {
        try {
            parse.run();
        } catch (Throwable t) {
            boolean own = documented != null && documented.isInstance(t)
                    && (t.getClass() == documented || t.getClass().getName().startsWith("io.slurmwise."));
            if (!own) {
                throw new AssertionError(parser + " threw " + t + " (expected a value"
                        + (documented == null ? "" : " or " + documented.getSimpleName()) + ") on " + shown(input), t);
            }
            if (t.getMessage() == null || t.getMessage().isBlank()) {
                throw new AssertionError(parser + " threw " + t.getClass().getSimpleName() + " without a message on "
                        + shown(input), t);
            }
        }
        COUNTS.computeIfAbsent(parser, k -> new AtomicLong()).incrementAndGet();
    }

    /** The input as a Java string literal, cut at 2,000 characters (a failing input is printed, not shrunk). */
    static String shown(Object input) {
        String s = String.valueOf(input);
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < Math.min(s.length(), 2000); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append(s.length() > 2000 ? "\"... (" + s.length() + " chars)" : "\"").toString();
    }

    /** Inputs per parser: {@code slurmwise.fuzz.inputs} (300 in every build; the fuzz profile sets 1,000,000). */
    public static final long INPUTS = Long.getLong("slurmwise.fuzz.inputs", 300);
    /** The run's seed ({@code -Dslurmwise.fuzz.seed=N} replays a run); printed when a test class ends. */
    public static final long SEED = Long.getLong("slurmwise.fuzz.seed", System.nanoTime());

    /**
     * {@link #INPUTS} inputs from the generator, the i-th drawn from a Random seeded with the run's seed and i (a
     * failure prints the input itself, and the seed replays the run).
     */
    public static <T> Iterable<T> inputs(Function<Random, T> generator) {
        return inputs(generator, INPUTS);
    }

    /**
     * As {@link #inputs(Function)}, at most {@code most} of them: for a parser whose every input costs a millisecond
     * or more (the classifier and a whole patch), where the fuzz profile's million would take half an hour.
     */
    public static <T> Iterable<T> inputs(Function<Random, T> generator, long most) {
        long count = Math.min(INPUTS, most);
        return () -> new Iterator<T>() {
            private long i;
            private final Random random = new Random();

            @Override
            public boolean hasNext() {
                return i < count;
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                random.setSeed(SEED * 1_000_003L + i++);
                return generator.apply(random);
            }
        };
    }

    /** One of the generators, chosen evenly. */
    @SafeVarargs
    public static <T> Function<Random, T> oneOf(Function<Random, T>... generators) {
        return r -> generators[r.nextInt(generators.length)].apply(r);
    }

    /** Prints the inputs each parser took in this test class and appends them to target/fuzz-counts.tsv. */
    public static void record() {
        Map<String, Long> now = new TreeMap<>();
        COUNTS.forEach((k, v) -> now.put(k, v.getAndSet(0)));
        StringBuilder sb = new StringBuilder();
        now.forEach((k, v) -> {
            if (v > 0) {
                System.out.printf("fuzz: %-34s %,d inputs passed (seed %d)%n", k, v, SEED);
                sb.append(k).append('\t').append(v).append('\n');
            }
        });
        try {
            Files.createDirectories(Path.of("target"));
            Files.writeString(Path.of("target", "fuzz-counts.tsv"), sb, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
