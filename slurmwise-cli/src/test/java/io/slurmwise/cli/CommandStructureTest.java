package io.slurmwise.cli;

import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.GlobalOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The shape of the command tree: shared options from mixins, a context from the factory, no cycle to the root. */
class CommandStructureTest {

    private static CommandLine tree() {
        GlobalOptions options = new GlobalOptions();
        Cli cli = new Cli(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), Map.of(), false, options);
        return Main.commandLine(cli, options);
    }

    private static List<CommandLine> all(CommandLine c) {
        List<CommandLine> out = new ArrayList<>(List.of(c));
        c.getSubcommands().values().forEach(s -> out.addAll(all(s)));
        return out;
    }

    /** Runs a command line with stdout and stderr captured: code, then out, then err. */
    private static List<String> run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true),
                Map.of("SLURMWISE_BACKEND", "mock", "SLURMWISE_NO_LLM", "1"), false);
        return List.of(String.valueOf(code), out.toString(), err.toString());
    }

    @Test
    void aRunBuildsOnlyTheSubcommandItRunsAndTheWholeTreeWhenHelpOrASuggestionNeedsIt() {
        assertThat(SlurmwiseCommand.needed(new String[] {"stats", "--json"}))
                .containsExactly(io.slurmwise.cli.stats.StatsCommand.class);
        assertThat(SlurmwiseCommand.needed(new String[] {"--backend", "jobs", "--no-color", "diagnose", "1001"}))
                .containsExactly(io.slurmwise.cli.diagnose.DiagnoseCommand.class);
        assertThat(SlurmwiseCommand.needed(new String[] {"--version"})).isEmpty();
        for (String[] whole : new String[][] {{}, {"--help"}, {"help", "stats"}, {"statz"}, {"--no-color"}}) {
            assertThat(SlurmwiseCommand.needed(whole)).as(String.join(" ", whole))
                    .isEqualTo(SlurmwiseCommand.SUBCOMMANDS);
        }
    }

    @Test
    void everySubcommandParsesAndHelpsAloneExactlyAsInTheWholeTree() {
        GlobalOptions options = new GlobalOptions();
        Cli cli = new Cli(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), Map.of(), false, options);
        CommandLine whole = Main.commandLine(cli, options);
        for (Map.Entry<String, CommandLine> e : whole.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) {
                continue;
            }
            StringWriter fromWhole = new StringWriter();
            e.getValue().usage(new PrintWriter(fromWhole), CommandLine.Help.Ansi.OFF);
            List<String> alone = run(e.getKey(), "--help");
            assertThat(alone.get(0)).as(e.getKey()).isEqualTo("0");
            // the same usage text (width and colour aside, which the run's context sets)
            assertThat(alone.get(1).replaceAll("\\s+", " ")).as(e.getKey())
                    .isEqualTo(fromWhole.toString().replaceAll("\\s+", " "));
        }
        List<String> version = run("--version");
        assertThat(version.get(0)).isEqualTo("0");
        assertThat(version.get(1)).startsWith("slurmwise ");
        List<String> typo = run("statz");
        assertThat(typo.get(0)).isEqualTo("2");
        assertThat(typo.get(2)).contains("Did you mean").contains("stats");
    }

    @Test
    void everyCommandTakesBackendAndNoColorAndEveryJsonNamesItsSchema() {
        for (CommandLine c : all(tree())) {
            CommandSpec spec = c.getCommandSpec();
            if (spec.name().equals("help")) {
                continue;
            }
            assertThat(spec.findOption("--backend")).as(spec.qualifiedName()).isNotNull();
            assertThat(spec.findOption("--no-color")).as(spec.qualifiedName()).isNotNull();
            OptionSpec json = spec.findOption("--json");
            if (json != null) {
                // the text comes from options.properties, keyed by the command: never the generic fallback
                assertThat(String.join(" ", json.description())).as(spec.qualifiedName())
                        .containsPattern("schema slurmwise\\.[a-z-]+/v1");
            }
        }
    }

    @Test
    void theCommandsThatPrintJsonAreTheOnesThatDid() {
        List<String> withJson = all(tree()).stream().filter(c -> c.getCommandSpec().findOption("--json") != null)
                .map(c -> c.getCommandSpec().qualifiedName()).sorted().toList();
        assertThat(withJson).containsExactly("slurmwise classify", "slurmwise diagnose", "slurmwise doctor",
                "slurmwise eval", "slurmwise jobs", "slurmwise kb build", "slurmwise kb list", "slurmwise kb search",
                "slurmwise kb show", "slurmwise stats", "slurmwise watch");
    }

    @Test
    void aGlobalOptionWorksBeforeAndAfterTheSubcommand() {
        for (String[] args : List.of(new String[] {"--backend", "nosuch", "jobs"}, new String[] {"jobs", "--backend", "nosuch"})) {
            StringWriter err = new StringWriter();
            int code = Main.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err),
                    Map.of("SLURMWISE_HOME", "target/slurmwise-home"), false);
            assertThat(code).isEqualTo(4);
            assertThat(err.toString()).contains("backend 'nosuch' is unknown");
        }
    }

    @Test
    void noCommandReachesBackToTheRootAndTheCliPackagesHaveNoCycle() throws IOException {
        Path main = Path.of("src/main/java");
        PackageGraph g = PackageGraph.of(main, "io.slurmwise.cli");
        assertThat(g.sourcesContaining("@ParentCommand")).isEmpty();
        assertThat(g.cycles()).isEmpty();
        // the root imports every command; nothing imports the root
        assertThat(g.importersOf("io.slurmwise.cli")).isEmpty();
    }

    @Test
    void theKnowledgeBasePackagesHaveNoCycle() throws IOException {
        PackageGraph g = PackageGraph.of(Path.of("..", "slurmwise-kb", "src", "main", "java"), "io.slurmwise.kb");
        assertThat(g.cycles()).isEmpty();
        // stores and models see the spi only: the knowledge base on top, its parts below
        assertThat(g.importersOf("io.slurmwise.kb")).isEmpty();
    }
}
