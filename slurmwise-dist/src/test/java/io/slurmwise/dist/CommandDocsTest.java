package io.slurmwise.dist;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class CommandDocsTest {

    private final CommandLine cmd = CommandDocs.commandLine();
    private final String man = CommandDocs.manPage(cmd, "9.9.9", "2026-01-02");

    @Test
    void manPageHasAHeaderAndTheStandardSections() {
        assertThat(man).startsWith(".TH SLURMWISE 1 \"2026-01-02\" \"slurmwise 9.9.9\"");
        assertThat(man).contains(".SH NAME\nslurmwise \\- ", ".SH SYNOPSIS", ".SH OPTIONS", ".SH COMMANDS",
                ".SH EXIT STATUS", ".SH ENVIRONMENT", ".B SLURMWISE_HOME", ".B 6\n");
    }

    @Test
    void manPageDocumentsEveryCommandAndEachOfItsOptions() {
        List<CommandSpec> commands = CommandDocs.subcommands(cmd.getCommandSpec());
        assertThat(commands).extracting(CommandSpec::qualifiedName)
                .contains("slurmwise diagnose", "slurmwise stats", "slurmwise mcp", "slurmwise kb search");
        for (CommandSpec c : commands) {
            assertThat(man).contains(".SS \"" + c.qualifiedName().replace("-", "\\-") + "\"");
            String section = section(c.qualifiedName().replace("-", "\\-"));
            for (OptionSpec o : c.options()) {
                boolean shared = o.usageHelp() || o.versionHelp()
                        || cmd.getCommandSpec().findOption(o.longestName()) != null;
                if (!o.hidden() && !shared) {
                    assertThat(section).as(c.qualifiedName() + " " + o.longestName())
                            .contains("\\fB" + o.longestName().replace("-", "\\-") + "\\fR");
                }
            }
        }
        assertThat(section("slurmwise diagnose")).contains("\\fIJOBID\\fR").doesNotContain("\\-\\-backend");
    }

    @Test
    void everyRoffLineIsAKnownMacroOrText() {
        Set<String> macros = Set.of(".TH", ".SH", ".SS", ".PP", ".TP", ".B", ".I");
        for (String line : man.split("\n")) {
            if (line.startsWith(".")) {
                assertThat(macros).as(line).contains(line.split(" ", 2)[0]);
            }
            assertThat(line).as("unescaped backslash: " + line).doesNotContainPattern("\\\\[^efI&\\-R(]");
        }
    }

    @Test
    void bashCompletionKnowsEverySubcommandAndZshRunsIt() {
        String bash = CommandDocs.bash(cmd);
        assertThat(bash).contains("function _complete_slurmwise()", "complete -F _complete_slurmwise");
        for (CommandSpec c : CommandDocs.subcommands(cmd.getCommandSpec())) {
            assertThat(bash).contains(c.name());
        }
        String zsh = CommandDocs.zsh(cmd);
        assertThat(zsh).startsWith("# slurmwise completion for zsh").contains("ZSH_VERSION", "bashcompinit",
                "complete -F _complete_slurmwise");
    }

    private String section(String qualifiedName) {
        int start = man.indexOf(".SS \"" + qualifiedName + "\"");
        int end = man.indexOf(".SS ", start + 1);
        return man.substring(start, end < 0 ? man.indexOf(".SH EXIT") : end);
    }
}
