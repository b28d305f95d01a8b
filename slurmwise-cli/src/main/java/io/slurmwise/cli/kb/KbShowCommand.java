package io.slurmwise.cli.kb;

import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.UserError;
import io.slurmwise.cli.render.Json;
import io.slurmwise.cli.render.Style;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.NoteSection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code slurmwise kb show <kind>}: one whole note. */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = {"Print the note of one failure kind: Cause, What to check, Fixes, Prevention.",
                "Example: slurmwise kb show oom"})
public final class KbShowCommand implements Callable<Integer> {

    private final Cli cli;

    public KbShowCommand(Cli cli) {
        this.cli = cli;
    }

    @Parameters(index = "0", paramLabel = "KIND", description = "A failure kind, e.g. oom, cuda_oom, time_limit (see kb list).")
    private String kind;

    @Mixin
    private JsonOutput json;

    @Override
    public Integer call() {
        FailureKind k = cli.taxonomy().find(kind).orElseThrow(() -> new UserError(ExitCodes.USAGE,
                "no failure kind '" + kind + "'; known: " + String.join(", ",
                        cli.taxonomy().kinds().stream().map(FailureKind::id).sorted().toList())));
        if (json.enabled()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("schema", "slurmwise.kb-note/v1");
            m.put("kind", k.id());
            m.put("title", k.title());
            m.put("category", k.category().id());
            m.put("parent", k.parent());
            m.put("source", k.note().source());
            m.put("sections", k.note().sections().stream().map(s -> {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("heading", s.heading());
                x.put("text", s.text());
                return x;
            }).toList());
            Json.print(cli.out(), m);
            return ExitCodes.OK;
        }
        Style style = cli.style();
        cli.out().println(style.bold("# " + k.title()) + style.dim("  (" + k.id() + ", " + k.category().id()
                + k.optParent().map(p -> ", a kind of " + p).orElse("") + " · " + k.note().source() + ")"));
        for (NoteSection s : k.note().sections()) {
            cli.out().println();
            cli.out().println(style.bold("## " + s.heading()));
            cli.out().println(s.text());
        }
        cli.out().flush();
        return ExitCodes.OK;
    }
}
