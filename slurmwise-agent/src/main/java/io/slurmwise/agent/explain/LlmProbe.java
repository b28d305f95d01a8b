package io.slurmwise.agent.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the configured language model can word explanations: something listens at the endpoint, and its
 * OpenAI-compatible {@code GET /models} lists the model (Ollama, vLLM and llama.cpp's server all answer it). Asks
 * nothing of the model itself, so it costs milliseconds, not a generation.
 *
 * <pre>{@code
 * LlmProbe.Result r = LlmProbe.check(LlmSettings.from(settings));
 * if (!r.usable()) System.err.println(r.detail());
 * }</pre>
 */
public final class LlmProbe {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /**
     * @param usable true when explanations will come from the model
     * @param certain false when the endpoint answered but could not say whether it serves the model
     * @param detail  what was found, and what to do when it is not usable
     */
    public record Result(boolean usable, boolean certain, String detail) {
    }

    private LlmProbe() {
    }

    public static Result check(LlmSettings s) {
        if (!s.enabled()) {
            return new Result(false, true, "disabled (SLURMWISE_NO_LLM or --no-llm): the template words every explanation");
        }
        String base = s.baseUrl().endsWith("/") ? s.baseUrl().substring(0, s.baseUrl().length() - 1) : s.baseUrl();
        try {
            Endpoints.requireListening(base);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return new Result(false, true, e.getMessage() + " (SLURMWISE_LLM_BASE_URL=" + s.baseUrl() + "): start the"
                    + " model server (for Ollama: `ollama serve` and `ollama pull " + s.model() + "`), point"
                    + " SLURMWISE_LLM_BASE_URL at one, or set SLURMWISE_NO_LLM=1; until then the template words"
                    + " explanations");
        }
        HttpResponse<String> r;
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/models")).timeout(TIMEOUT).GET();
            if (s.apiKey() != null && !s.apiKey().isBlank() && !s.apiKey().equals("not-needed")) {
                b.header("Authorization", "Bearer " + s.apiKey());
            }
            r = HttpClient.newBuilder().connectTimeout(TIMEOUT).build().send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return new Result(false, true, base + "/models did not answer (" + e.getMessage() + "); is it an"
                    + " OpenAI-compatible endpoint (Ollama: http://HOST:11434/v1)?");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(false, true, "interrupted");
        }
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            return new Result(false, true, base + " refused the API key (HTTP " + r.statusCode() + "): set"
                    + " SLURMWISE_LLM_API_KEY");
        }
        if (r.statusCode() != 200) {
            return new Result(true, false, base + " listens, but /models answered HTTP " + r.statusCode()
                    + ": the model " + s.model() + " could not be checked");
        }
        List<String> ids = new ArrayList<>();
        try {
            for (JsonNode m : JSON.readTree(r.body()).path("data")) {
                ids.add(m.path("id").asText());
            }
        } catch (IOException e) {
            return new Result(true, false, base + "/models is not OpenAI-style JSON: the model " + s.model()
                    + " could not be checked");
        }
        if (ids.stream().anyMatch(id -> sameModel(id, s.model()))) {
            return new Result(true, true, "model " + s.model() + " served at " + base);
        }
        String listed = ids.isEmpty() ? "no models" : String.join(", ", ids.subList(0, Math.min(8, ids.size())))
                + (ids.size() > 8 ? ", ..." : "");
        // Not listed is not the same as refused: Ollama and vLLM answer 404 (diagnose then falls back to the
        // template and its footer gives the server's reason), but a one-model server such as llama.cpp's answers
        // whatever name a request carries. So the probe warns without claiming which of the two will happen.
        return new Result(true, false, base + " does not serve " + s.model() + " (it lists " + listed + "): Ollama"
                + " and vLLM refuse it and the template words explanations (the footer says why), a one-model server"
                + " such as llama.cpp's answers anyway; pull it (`ollama pull " + s.model() + "`) or set"
                + " SLURMWISE_LLM_MODEL to one it lists");
    }

    /** Ollama's own rule: a name without a tag is the {@code :latest} one, so "llama3.2" is "llama3.2:latest". */
    static boolean sameModel(String listed, String wanted) {
        return withTag(listed).equals(withTag(wanted));
    }

    private static String withTag(String name) {
        int slash = name.lastIndexOf('/');
        return name.indexOf(':', slash + 1) >= 0 ? name : name + ":latest";
    }
}
