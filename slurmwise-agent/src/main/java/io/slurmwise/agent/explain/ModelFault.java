package io.slurmwise.agent.explain;

import dev.langchain4j.exception.HttpException;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;

/**
 * What went wrong with a model endpoint, in one line that says what to do: nothing listening, too slow, an HTTP
 * error, an answer that is not an OpenAI-compatible chat response (cut off, a proxy's HTML page). The client's
 * exception names and multi-line parser messages stay out of it.
 *
 * <pre>{@code
 * ModelFault.of(e, "http://gpu1:8000/v1", Duration.ofSeconds(60)).line()
 * // "the language model at http://gpu1:8000/v1 did not answer within 60 s; raise SLURMWISE_LLM_TIMEOUT, ..."
 * }</pre>
 */
public record ModelFault(String what, String todo) {

    private static final int MAX_DETAIL = 120;

    /** {@code what; todo}. */
    public String line() {
        return what + "; " + todo;
    }

    /** {@code what; consequence; todo} (e.g. "the template worded this"). */
    public String line(String consequence) {
        return what + "; " + consequence + "; " + todo;
    }

    /** Whether nothing listened at the endpoint (no model server there, a login node's common case). */
    public boolean nothingListens() {
        return what.startsWith("no language model answered");
    }

    /** What went wrong in {@code e}, thrown while asking the model at {@code endpoint} with {@code timeout}. */
    public static ModelFault of(Throwable e, String endpoint, Duration timeout) {
        HttpException http = find(e, HttpException.class);
        if (http != null) {
            int code = http.statusCode();
            String detail = detail(http.getMessage());
            if (code == 401 || code == 403) {
                return new ModelFault("the language model at " + endpoint + " refused the request (HTTP " + code + detail
                        + ")", "set SLURMWISE_LLM_API_KEY, or SLURMWISE_NO_LLM=1 to skip it");
            }
            if (code == 404) {
                return new ModelFault("the language model endpoint at " + endpoint + " has no such model or API (HTTP 404"
                        + detail + ")", "check SLURMWISE_LLM_MODEL and that SLURMWISE_LLM_BASE_URL ends in /v1");
            }
            if (code == 429) {
                return new ModelFault("the language model at " + endpoint + " is rate-limiting (HTTP 429" + detail + ")",
                        "try again later, or SLURMWISE_NO_LLM=1 to skip it");
            }
            return new ModelFault("the language model server at " + endpoint + " failed (HTTP " + code + detail + ")",
                    "check its log, or SLURMWISE_NO_LLM=1 to skip it");
        }
        if (find(e, HttpTimeoutException.class) != null || find(e, SocketTimeoutException.class) != null
                || find(e, dev.langchain4j.exception.TimeoutException.class) != null) {
            return new ModelFault("the language model at " + endpoint + " did not answer within " + seconds(timeout),
                    "raise SLURMWISE_LLM_TIMEOUT, use a smaller model, or SLURMWISE_NO_LLM=1 to skip it");
        }
        if (find(e, ConnectException.class) != null || find(e, java.io.UncheckedIOException.class) != null
                && String.valueOf(e.getMessage()).startsWith("nothing listens")) {
            return new ModelFault("no language model answered at " + endpoint + " (" + detail(rootMessage(e))
                    .replaceFirst("^: ", "") + ")",
                    "start one (e.g. `ollama serve`), set SLURMWISE_LLM_BASE_URL, or SLURMWISE_NO_LLM=1 to skip it");
        }
        if (find(e, com.fasterxml.jackson.core.JsonProcessingException.class) != null
                || find(e, IndexOutOfBoundsException.class) != null || find(e, NullPointerException.class) != null) {
            return new ModelFault("the endpoint at " + endpoint + " answered with something that is not an"
                    + " OpenAI-compatible chat response (cut off, or not JSON)", "check that SLURMWISE_LLM_BASE_URL points"
                    + " at the model server's /v1 API, or SLURMWISE_NO_LLM=1 to skip it");
        }
        return new ModelFault("no usable answer from the language model at " + endpoint + " (" + detail(rootMessage(e))
                .replaceFirst("^: ", "") + ")", "check it, or SLURMWISE_NO_LLM=1 to skip it");
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName().replaceAll("(Exception|Error)$", "")
                .replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT) : t.getMessage();
    }

    /** ": " and the first line of {@code message}, cut short, with an error body's message picked out of its JSON. */
    private static String detail(String message) {
        if (message == null || message.isBlank()) {
            return "";
        }
        String m = message;
        java.util.regex.Matcher json = java.util.regex.Pattern.compile("\"message\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"")
                .matcher(m);
        if (json.find()) {
            m = json.group(1);
        }
        m = m.strip().lines().findFirst().orElse("").replaceAll("\\p{Cntrl}", "?");
        return ": " + (m.length() > MAX_DETAIL ? m.substring(0, MAX_DETAIL - 1) + "…" : m);
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
