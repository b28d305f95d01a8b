package io.slurmwise.cli.kb;

import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.render.Json;
import io.slurmwise.cli.render.Table;
import io.slurmwise.kb.Chunk;
import io.slurmwise.kb.KbException;
import io.slurmwise.kb.KnowledgeBase;
import io.slurmwise.taxonomy.FailureKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code slurmwise kb list}: the notes, their sections, and whether the index is built. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"List the notes (one per failure kind) with their sections, and the index's state.",
                "Example: slurmwise kb list"})
public final class KbListCommand implements Callable<Integer> {

    private final Cli cli;

    public KbListCommand(Cli cli) {
        this.cli = cli;
    }

    @Mixin
    private JsonOutput json;

    @Override
    public Integer call() {
        KnowledgeBase base = cli.knowledgeBase(null);
        String index;
        boolean built;
        try {
            built = base.isBuilt();
            index = built ? "built, " + base.store().name() + " store " + base.store().location()
                    : "not built (slurmwise kb build, or the next diagnose builds it) for the " + base.store().name()
                    + " store " + base.store().location();
        } catch (KbException e) {
            built = false;
            index = "unknown: " + e.getMessage();
        }
        List<FailureKind> kinds = base.taxonomy().kinds().stream().sorted((a, b) -> a.id().compareTo(b.id())).toList();
        if (json.enabled()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("schema", "slurmwise.kb-list/v1");
            m.put("model", base.config().embeddings().name());
            m.put("store", base.store().name());
            m.put("built", built);
            m.put("index", index);
            m.put("notes", kinds.stream().map(k -> {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("kind", k.id());
                n.put("title", k.title());
                n.put("category", k.category().id());
                n.put("parent", k.parent());
                n.put("source", k.note().source());
                n.put("sections", sections(base, k).stream().map(Chunk::section).toList());
                return n;
            }).toList());
            Json.print(cli.out(), m);
            return ExitCodes.OK;
        }
        Table t = new Table(cli.style(), "KIND", "CATEGORY", "SECTIONS", "TITLE", "NOTE");
        for (FailureKind k : kinds) {
            t.row(k.id(), k.category().id(), String.valueOf(sections(base, k).size()), k.title(), k.note().source());
        }
        t.print(cli.out());
        cli.out().println();
        cli.out().println(kinds.size() + " notes, " + base.chunks().size() + " sections, " + base.passages().size()
                + " passages · model " + base.config().embeddings().name() + " · index " + index);
        return ExitCodes.OK;
    }

    private static List<Chunk> sections(KnowledgeBase base, FailureKind k) {
        return base.chunks().stream().filter(c -> c.kindId().equals(k.id())).toList();
    }
}
