package io.slurmwise.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Every setting slurmwise reads from the environment, in one place. Flags override them (the CLI builds a
 * copy with {@code with*}); embedders build one directly.
 *
 * <pre>{@code
 * Settings s = Settings.fromEnvironment().withBackend("mock");
 * }</pre>
 *
 * @param backend      SLURMWISE_BACKEND: auto (default), real, mock, or a provider name
 * @param home         SLURMWISE_HOME: state and indexes (default ~/.slurmwise)
 * @param knowledgeDir SLURMWISE_KNOWLEDGE: a folder of site notes that replace or extend the bundled ones
 * @param mockDir      SLURMWISE_MOCK_DIR: fixtures for the mock backend instead of the bundled cluster
 * @param logTailLines SLURMWISE_LOG_TAIL: lines read from the end of each log (default 300)
 * @param retriever    SLURMWISE_RETRIEVER: where fix notes come from: auto (default), kb, notes, or a provider name
 * @param explainer    SLURMWISE_EXPLAINER: who words a diagnosis: auto (default), llm, template, or a provider name;
 *                     SLURMWISE_NO_LLM set makes auto the template
 * @param env          the raw environment, for modules with settings of their own
 */
public record Settings(String backend, Path home, Path knowledgeDir, Path mockDir, int logTailLines,
                       String retriever, String explainer, Map<String, String> env) {

    public static final int DEFAULT_LOG_TAIL = 300;

    public Settings {
        backend = backend == null || backend.isBlank() ? "auto" : backend.strip();
        retriever = retriever == null || retriever.isBlank() ? "auto" : retriever.strip();
        explainer = explainer == null || explainer.isBlank() ? "auto" : explainer.strip();
        env = Map.copyOf(env);
        if (logTailLines <= 0 || logTailLines > 100_000) {
            throw new SettingsException("SLURMWISE_LOG_TAIL must be between 1 and 100000 lines, got "
                    + logTailLines);
        }
    }

    public static Settings fromEnvironment() {
        return from(System.getenv());
    }

    public static Settings from(Map<String, String> env) {
        String home = env.get("SLURMWISE_HOME");
        Path homePath = home == null || home.isBlank()
                ? Path.of(System.getProperty("user.home"), ".slurmwise")
                : Path.of(home);
        return new Settings(env.get("SLURMWISE_BACKEND"), homePath, pathOrNull(env.get("SLURMWISE_KNOWLEDGE")),
                pathOrNull(env.get("SLURMWISE_MOCK_DIR")), tail(env.get("SLURMWISE_LOG_TAIL")),
                env.get("SLURMWISE_RETRIEVER"), env.get("SLURMWISE_EXPLAINER"), env);
    }

    private static Path pathOrNull(String s) {
        return s == null || s.isBlank() ? null : Path.of(s);
    }

    private static int tail(String s) {
        if (s == null || s.isBlank()) {
            return DEFAULT_LOG_TAIL;
        }
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            throw new SettingsException("SLURMWISE_LOG_TAIL must be a number of lines, got '" + s + "'");
        }
    }

    /**
     * SLURMWISE_LOG_TIMEOUT: seconds a log file may give no data before its read is given up (default 10): a FIFO
     * nobody writes to, a hung network file system.
     */
    public java.time.Duration logReadTimeout() {
        return seconds("SLURMWISE_LOG_TIMEOUT", java.time.Duration.ofSeconds(10), 0, 86_400);
    }

    /**
     * A time limit given in seconds (decimals allowed) by {@code variable}, or {@code fallback} when it is unset:
     * the one reading of every {@code SLURMWISE_*_TIMEOUT}. A value that is not a number, not positive, below
     * {@code min} or above {@code max} is a {@link SettingsException} naming the variable and the range.
     */
    public java.time.Duration seconds(String variable, java.time.Duration fallback, double min, double max) {
        String v = env.get(variable);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            double secs = Double.parseDouble(v.strip());
            if (secs > 0 && secs >= min && secs <= max) {
                return java.time.Duration.ofMillis(Math.max(1, Math.round(secs * 1000)));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new SettingsException(variable + " must be a number of seconds between " + number(min) + " and "
                + number(max) + ", got '" + v + "'");
    }

    private static String number(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    public Optional<String> get(String variable) {
        return Optional.ofNullable(env.get(variable)).filter(v -> !v.isBlank());
    }

    public Settings withBackend(String b) {
        return new Settings(b, home, knowledgeDir, mockDir, logTailLines, retriever, explainer, env);
    }

    /** Where fix notes come from: {@code kb}, {@code notes}, {@code auto} or another provider's name. */
    public Settings withRetriever(String r) {
        return new Settings(backend, home, knowledgeDir, mockDir, logTailLines, r, explainer, env);
    }

    /** Who words a diagnosis: {@code llm}, {@code template}, {@code auto} or another provider's name. */
    public Settings withExplainer(String e) {
        return new Settings(backend, home, knowledgeDir, mockDir, logTailLines, retriever, e, env);
    }

    public Settings withLogTailLines(int n) {
        return new Settings(backend, home, knowledgeDir, mockDir, n, retriever, explainer, env);
    }

    public Settings withKnowledgeDir(Path p) {
        return new Settings(backend, home, p, mockDir, logTailLines, retriever, explainer, env);
    }

    public Settings withMockDir(Path p) {
        return new Settings(backend, home, knowledgeDir, p, logTailLines, retriever, explainer, env);
    }

    public Settings withHome(Path p) {
        return new Settings(backend, p, knowledgeDir, mockDir, logTailLines, retriever, explainer, env);
    }
}
