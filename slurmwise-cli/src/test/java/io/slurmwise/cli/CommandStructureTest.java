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
}
