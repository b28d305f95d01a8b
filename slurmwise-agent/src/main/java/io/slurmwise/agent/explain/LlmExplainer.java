package io.slurmwise.agent.explain;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.output.FinishReason;
import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.diagnose.Explainer;
import io.slurmwise.diagnose.Explanation;
import io.slurmwise.diagnose.FixNote;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.taxonomy.Taxonomy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Words a finding with a language model. The model receives the rules' verdict, the evidence and the fix
 * notes, and is told not to change the cause; whatever it answers, the {@link Finding} (and so the kind)
 * is untouched: only {@link Explanation#text()} comes from the model, and only after the
 * {@link ExplanationGuard} found nothing in it that contradicts the rules or is absent from the material it
 * was given. A reasoning model's scratchpad ({@code <think>...</think>}) is removed first: the guard reads the words
 * shown. When no model answers, its answer is only reasoning, cut at its length limit or set aside, the fallback
 * explainer (the template) words it, the explanation's note and {@link #fallbackReason()} say why (the note leaves
 * out only an endpoint where nothing listens); after the model fails to answer once it is not asked again in this
 * process.
 *
 * <pre>{@code
 * Explainer e = LlmExplainer.openAiCompatible(LlmSettings.from(settings), new TemplateExplainer(), taxonomy);
 * }</pre>
 */
public final class LlmExplainer implements Explainer {

    private static final String SYSTEM = resource("explain-system.txt");
    private static final String USER = resource("explain-user.txt");
    private static final int MAX_EVIDENCE = 6;
    private static final int MAX_FIX_CHARS = 2500;

    private final java.util.function.Supplier<ChatModel> modelFactory;
    private ChatModel model;
    private final String modelName;
    private final String endpoint;
    private final Duration timeout;
    private final Explainer fallback;
    private final ExplanationGuard guard;
    /** Set once no model answered: it is not asked again. */
    private volatile String unavailable;
    /** The note of every explanation after the model failed, or null (nothing listened). */
    private volatile String unavailableNote;
    /** Why the last explanation did not come from the model, or null. */
    private volatile String fallbackReason;

    /**
     * @param guard checks every answer before it is used
     */
    public LlmExplainer(ChatModel model, String modelName, String endpoint, Explainer fallback, ExplanationGuard guard) {
        this(() -> model, modelName, endpoint, LlmSettings.DEFAULT_TIMEOUT, fallback, guard);
    }

    private LlmExplainer(java.util.function.Supplier<ChatModel> modelFactory, String modelName, String endpoint,
                         Duration timeout, Explainer fallback, ExplanationGuard guard) {
        this.modelFactory = modelFactory;
        this.modelName = modelName;
        this.endpoint = endpoint;
        this.timeout = timeout;
        this.fallback = fallback;
        this.guard = java.util.Objects.requireNonNull(guard, "guard");
    }

    /**
     * A model behind any OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp server, OpenAI...), its answers
     * checked against the kinds of {@code taxonomy}.
     */
    public static LlmExplainer openAiCompatible(LlmSettings s, Explainer fallback, Taxonomy taxonomy) {
        // built on first use, after a quick check that something listens: most runs have no model, and the
        // client's classes are a large share of start-up
        return new LlmExplainer(() -> {
            Endpoints.requireListening(s.baseUrl());
            return OpenAiChatModel.builder()
                    .baseUrl(s.baseUrl())
                    .apiKey(s.apiKey())
                    .modelName(s.model())
                    .temperature(0.2)
                    .timeout(s.timeout())
                    .maxRetries(0)
                    .build();
        }, s.model(), s.baseUrl(), s.timeout(), fallback, ExplanationGuard.of(taxonomy));
    }

    /** Why the last explanation came from the fallback, if it did. */
    @Override
    public Optional<String> fallbackReason() {
        return Optional.ofNullable(fallbackReason);
    }

    @Override
    public Explanation explain(JobRecord job, Finding finding, List<FixNote> fixes) {
        return explain(job, finding, fixes, null);
    }

    /**
     * With the patch shown beside the answer: the model is told the change, and an answer that says more of what it
     * raises will not help is set aside ({@link ExplanationGuard#patchProblem}).
     */
    @Override
    public Explanation explain(JobRecord job, Finding finding, List<FixNote> fixes, io.slurmwise.patch.Patch patch) {
        if (unavailable != null) {
            fallbackReason = unavailable;
            return withNote(fallback.explain(job, finding, fixes), unavailableNote);
        }
        fallbackReason = null;
        List<io.slurmwise.patch.Patch.Change> changes = patch == null ? List.of() : patch.changes();
        String user = prompt(job, finding, fixes) + patchLines(changes);
        String text;
        FinishReason finish;
        String served;
        try {
            if (model == null) {
                model = modelFactory.get();
            }
            ChatResponse r = model.chat(SystemMessage.from(SYSTEM), UserMessage.from(user));
            text = r.aiMessage() == null ? null : r.aiMessage().text();
            finish = r.finishReason();
            served = r.modelName();
        } catch (RuntimeException e) {
            // slow, down, failing or answering garbage: one line that says what to do, and not asked again
            ModelFault fault = ModelFault.of(e, endpoint, timeout);
            unavailable = fault.line("the template worded this");
            // what happened travels with the diagnosis (footer, JSON), as a rejected answer's reason does; not when
            // nothing listens, a login node's common case, said on stderr once a day
            unavailableNote = fault.nothingListens() ? null : fault.what() + "; the template worded this";
            fallbackReason = unavailable;
            return withNote(fallback.explain(job, finding, fixes), unavailableNote);
        }
        if (finish == FinishReason.LENGTH) {
            // the server stopped it at its length limit: an unfinished sentence ("Do not raise --mem; instead") is a
            // claim the guard cannot judge, so none of it is shown
            fallbackReason = "the model's answer was cut at its length limit (finish_reason \"length\"); the template"
                    + " worded this";
            return fallback.explain(job, finding, fixes).withNote(fallbackReason);
        }
        // a reasoning model's scratchpad (<think>...</think>) is neither shown nor read by the guard: only the answer
        boolean reasoned = text != null && THINK_TAG.matcher(text).find();
        text = text == null ? null : withoutReasoning(text);
        if (text == null || text.isBlank()) {
            fallbackReason = "the language model at " + endpoint + " answered nothing"
                    + (reasoned ? " but its reasoning (<think>)" : "") + "; the template worded this";
            return fallback.explain(job, finding, fixes).withNote(fallbackReason);
        }
        // cut where it is received (Explanation.MAX_CHARS, MCP's field limit): the guard reads the words that are
        // shown, not the marker's count (a 5.4 MB answer took the guard minutes)
        String shown = Explanation.capped(text, Explanation.MAX_CHARS);
        String words = shown == text ? text : shown.substring(0, shown.lastIndexOf(" [... "));
        Optional<String> problem = guard.problem(words, finding, job, SYSTEM + "\n" + user)
                .or(() -> guard.patchProblem(words, changes));
        if (problem.isPresent()) {
            fallbackReason = "the model's answer was set aside: " + problem.get() + "; the template worded this";
            // the note travels with the diagnosis (footer, JSON); the model's words do not, not even the reason's quote
            return fallback.explain(job, finding, fixes).withNote(ExplanationGuard.unquoted(fallbackReason));
        }
        return new Explanation(shown.strip(), "llm:" + answeredBy(served, modelName));
    }

    private static final Pattern MODEL_NAME = Pattern.compile("[\\w.:/@+-]{1,100}");

    /**
     * The model that answered, as the server names it in its response (llama.cpp's server answers any name with
     * the file it loaded; OpenAI names the dated version), when that is a plain name; else the one configured.
     */
    static String answeredBy(String served, String configured) {
        return served != null && MODEL_NAME.matcher(served).matches() ? served : configured;
    }

    /** A reasoning block's opening or closing tag: {@code <think>}, {@code </think>}, {@code <thinking>}... */
    private static final Pattern THINK_TAG = Pattern.compile("(?i)</?think(?:ing)?>");
    private static final Pattern THINK_BLOCK = Pattern.compile("(?is)<(think(?:ing)?)>.*?</\\1>");
    private static final Pattern THINK_END = Pattern.compile("(?i)</think(?:ing)?>");
    private static final Pattern THINK_START = Pattern.compile("(?i)<think(?:ing)?>");

    /**
     * The answer without a reasoning model's scratchpad (qwen3, deepseek-r1 served by Ollama or vLLM): every
     * {@code <think>...</think>} block; everything up to a closing tag whose opening one the server stripped; and
     * everything from an opening tag never closed (the answer cut inside its reasoning). What is left is stripped;
     * it may be empty.
     */
    public static String withoutReasoning(String text) {
        if (!THINK_TAG.matcher(text).find()) {
            return text;
        }
        String s = THINK_BLOCK.matcher(text).replaceAll(" ");
        Matcher end = THINK_END.matcher(s);
        int after = -1;
        while (end.find()) {
            after = end.end();
        }
        if (after >= 0) {
            s = s.substring(after);
        }
        Matcher start = THINK_START.matcher(s);
        if (start.find()) {
            s = s.substring(0, start.start());
        }
        return s.strip();
    }

    private static Explanation withNote(Explanation e, String note) {
        return note == null ? e : e.withNote(note);
    }

    /** The patch's changes as the prompt's last lines, or nothing without a change. */
    static String patchLines(List<io.slurmwise.patch.Patch.Change> changes) {
        if (changes.isEmpty()) {
            return "";
        }
        return "\nScript change slurmwise suggests, shown beside your answer (agree with it):\n" + changes.stream()
                .map(c -> "- " + c.what() + (c.why() == null || c.why().isBlank() ? "" : ": " + c.why()))
                .collect(Collectors.joining("\n"));
    }

    static String prompt(JobRecord job, Finding f, List<FixNote> fixes) {
        String jobLine = job == null ? "(a log file, no accounting record)"
                : job.id() + " " + job.name() + ", state " + job.status() + ", exit "
                + (job.exitCode() == null ? "?" : job.exitCode()) + ", elapsed "
                + (job.elapsed() == null ? "?" : SlurmTime.format(job.elapsed())) + " of " + job.timeLimit()
                + ", memory peak " + job.memoryPeakText().orElse("unknown") + " of "
                + job.memoryLimitText().orElse("?") + ", " + job.cpus() + " CPUs, " + job.gpus()
                + " GPUs, partition " + job.partition();
        String evidence = f.evidence().stream().limit(MAX_EVIDENCE)
                .map((Evidence e) -> "- " + e.location() + ": " + e.text()).collect(Collectors.joining("\n"));
        // the finding's own Fixes section first: the prompt asks which listed fix to try first, and the sections
        // retrieved above it (What to check, Messages matched) could fill the budget before it (1008's did)
        List<FixNote> ordered = new java.util.ArrayList<>(fixes);
        ordered.sort(java.util.Comparator.comparing((FixNote n) -> !(n.kindId().equals(f.kindId())
                && "Fixes".equals(n.section()))));
        String fixText = ordered.stream().map(n -> "[" + n.noteTitle() + " / " + n.section() + "]\n" + n.text())
                .collect(Collectors.joining("\n\n"));
        if (fixText.length() > MAX_FIX_CHARS) {
            fixText = fixText.substring(0, MAX_FIX_CHARS) + "\n...";
        }
        return USER.replace("{{kind}}", f.kindId())
                .replace("{{title}}", f.kind().title())
                .replace("{{confidence}}", String.format(Locale.ROOT, "%.0f%%", f.confidence() * 100))
                .replace("{{job}}", jobLine)
                .replace("{{evidence}}", evidence.isEmpty() ? "(none)" : evidence)
                .replace("{{fixes}}", fixText.isEmpty() ? "(none)" : fixText);
    }

    private static String resource(String name) {
        try (InputStream in = LlmExplainer.class.getResourceAsStream("/io/slurmwise/agent/" + name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from slurmwise-agent; rebuild the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
