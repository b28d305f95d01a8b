package io.slurmwise.agent.explain;

import io.slurmwise.config.Settings;

import java.time.Duration;

/**
 * Where the language model lives: any OpenAI-compatible endpoint (Ollama's /v1 by default).
 *
 * @param enabled false with SLURMWISE_NO_LLM set (or --no-llm): the template words every explanation
 */
public record LlmSettings(boolean enabled, String baseUrl, String model, String apiKey, Duration timeout) {

    public static final String DEFAULT_BASE_URL = "http://localhost:11434/v1";
    public static final String DEFAULT_MODEL = "qwen2.5:7b";
    /** SLURMWISE_LLM_TIMEOUT's default: how long one answer may take. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** SLURMWISE_LLM_BASE_URL, SLURMWISE_LLM_MODEL, SLURMWISE_LLM_API_KEY, SLURMWISE_LLM_TIMEOUT (s), SLURMWISE_NO_LLM. */
    public static LlmSettings from(Settings s) {
        return new LlmSettings(s.get("SLURMWISE_NO_LLM").isEmpty(),
                s.get("SLURMWISE_LLM_BASE_URL").orElse(DEFAULT_BASE_URL),
                s.get("SLURMWISE_LLM_MODEL").orElse(DEFAULT_MODEL),
                s.get("SLURMWISE_LLM_API_KEY").orElse("not-needed"),
                s.seconds("SLURMWISE_LLM_TIMEOUT", DEFAULT_TIMEOUT, 1, 3600));
    }

    public LlmSettings disabled() {
        return new LlmSettings(false, baseUrl, model, apiKey, timeout);
    }
}
