package io.slurmwise.cli.kb;

import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.UserError;
import io.slurmwise.cli.render.TerminalText;
import io.slurmwise.cli.render.Json;
import io.slurmwise.kb.spi.KbException;
import io.slurmwise.kb.KnowledgeBase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code slurmwise kb build}: embeds every note section and stores the index. */
@Command(name = "build", mixinStandardHelpOptions = true,
        description = {"Embed every section of the notes and store the index (rebuilt even if current).",
                "Diagnoses build it themselves when it is missing or the notes or model changed.",
                "Example: slurmwise kb build --chroma-url http://127.0.0.1:8000"})
public final class KbBuildCommand implements Callable<Integer> {

    private final Cli cli;

    public KbBuildCommand(Cli cli) {
        this.cli = cli;
    }

    @Option(names = "--chroma-url", paramLabel = "URL",
            description = "Fill a collection in the Chroma server at URL instead of the embedded index"
                    + " (fails if it does not answer; SLURMWISE_CHROMA_URL without this flag falls back).")
    private String chromaUrl;

    @Mixin
    private JsonOutput json;

    @Override
    public Integer call() {
        KnowledgeBase base = cli.knowledgeBase(chromaUrl);
        boolean progress = cli.isTerminal() && !json.enabled();
        KnowledgeBase.BuildReport r;
        try {
            r = base.build(new KnowledgeBase.BuildListener() {
                @Override
                public void loadingModel(String model) {
                    if (progress) {
                        cli.progress().print("\rloading the embedding model " + TerminalText.line(model) + "...");
                        cli.progress().flush();
                    }
                }

                @Override
                public void embedded(int done, int total) {
                    if (progress) {
                        cli.progress().print("\r\u001b[Kembedding passages " + done + "/" + total);
                        cli.progress().flush();
                    }
                }

                @Override
                public void writing(String store, String location) {
                    if (progress) {
                        cli.progress().print("\r\u001b[Kwriting the index to the " + TerminalText.line(store)
                                + " store\r\u001b[K");
                        cli.progress().flush();
                    }
                }
            });
        } catch (KbException e) {
            if (progress) {
                cli.err().println();
            }
            throw new UserError(chromaUrl != null ? ExitCodes.BACKEND : ExitCodes.CONFIG, e.getMessage());
        }
        if (json.enabled()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("schema", "slurmwise.kb-build/v1");
            m.put("store", r.store());
            m.put("location", r.location());
            m.put("model", r.model());
            m.put("notes", base.taxonomy().kinds().size());
            m.put("sections", r.chunks());
            m.put("passages", r.passages());
            m.put("model_load_ms", r.modelLoad().toMillis());
            m.put("embedding_ms", r.embedding().toMillis());
            m.put("writing_ms", r.writing().toMillis());
            Json.print(cli.out(), m);
        } else {
            cli.out().println("built the knowledge index: " + r.chunks() + " sections (" + r.passages()
                    + " passages) of " + base.taxonomy().kinds().size() + " notes, model " + r.model());
            cli.out().println("  store  " + r.store() + " " + r.location());
            cli.out().println("  time   model load " + secs(r.modelLoad()) + ", embedding " + secs(r.embedding())
                    + ", writing " + secs(r.writing()));
        }
        return ExitCodes.OK;
    }

    private static String secs(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
