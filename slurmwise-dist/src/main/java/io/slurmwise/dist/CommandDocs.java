package io.slurmwise.dist;

import io.slurmwise.cli.Main;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the shell completion scripts and the man page of the {@code slurmwise} command from its picocli model, so
 * they never drift from the real options. Run at package time by the slurmwise-dist build:
 * {@code CommandDocs OUTPUT_DIR VERSION [DATE]} writes {@code share/completion/slurmwise.bash},
 * {@code share/completion/slurmwise.zsh} and {@code share/man/man1/slurmwise.1} under OUTPUT_DIR.
 */
public final class CommandDocs {

    private CommandDocs() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: CommandDocs OUTPUT_DIR VERSION [YYYY-MM-DD]");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        String version = args[1];
        String date = args.length > 2 ? args[2] : LocalDate.now().toString();
        CommandLine cmd = commandLine();
        Path completion = Files.createDirectories(out.resolve("share/completion"));
        Files.writeString(completion.resolve("slurmwise.bash"), bash(cmd), StandardCharsets.UTF_8);
        Files.writeString(completion.resolve("slurmwise.zsh"), zsh(cmd), StandardCharsets.UTF_8);
        Path man = Files.createDirectories(out.resolve("share/man/man1"));
        Files.writeString(man.resolve("slurmwise.1"), manPage(cmd, version, date), StandardCharsets.UTF_8);
    }

    /** The command tree as the CLI builds it. */
    static CommandLine commandLine() {
        return Main.model();
    }

    /** picocli's bash completion (it also runs under zsh through bashcompinit). */
    static String bash(CommandLine cmd) {
        return AutoComplete.bash("slurmwise", cmd);
    }

    /** The same script for zsh users to source: picocli's script turns on zsh's bash-completion emulation itself. */
    static String zsh(CommandLine cmd) {
        return "# slurmwise completion for zsh: source this file from ~/.zshrc (after compinit).\n"
                + bash(cmd).replaceAll("(?m)^#!.*\\n", "");
    }

    /** The man page in roff (man(7) macros), one section per subcommand. */
    static String manPage(CommandLine cmd, String version, String date) {
        CommandSpec root = cmd.getCommandSpec();
        Roff r = new Roff(root);
        r.macro(".TH SLURMWISE 1 \"" + date + "\" \"slurmwise " + version + "\" \"User Commands\"");
        r.macro(".SH NAME");
        r.text("slurmwise \\- " + Roff.escape(String.join(" ", root.usageMessage().description())));
        r.macro(".SH SYNOPSIS");
        r.synopsis(root);
        for (CommandSpec sub : subcommands(root)) {
            r.synopsis(sub);
        }
        r.macro(".SH DESCRIPTION");
        r.text(Roff.escape(String.join(" ", root.usageMessage().description())));
        r.macro(".SH OPTIONS");
        r.text("These options work with every command.");
        r.options(root);
        r.macro(".SH COMMANDS");
        for (CommandSpec sub : subcommands(root)) {
            r.command(sub);
        }
        String[] exitCodes = root.usageMessage().exitCodeList().entrySet().stream()
                .map(e -> e.getKey().trim() + "\t" + e.getValue()).toArray(String[]::new);
        if (exitCodes.length > 0) {
            r.macro(".SH EXIT STATUS");
            for (String e : exitCodes) {
                String[] kv = e.split("\t", 2);
                r.macro(".TP");
                r.macro(".B " + Roff.escape(kv[0]));
                r.text(Roff.escape(kv[1]));
            }
        }
        String[] footer = root.usageMessage().footer();
        if (footer.length > 0) {
            r.macro(".SH ENVIRONMENT");
            for (String line : footer) {
                String[] kv = line.trim().split("\\s{2,}", 2);
                r.macro(".TP");
                r.macro(".B " + Roff.escape(kv[0]));
                r.text(kv.length > 1 ? Roff.escape(kv[1]) : "");
            }
        }
        r.macro(".SH FILES");
        r.macro(".TP");
        r.macro(".I ~/.slurmwise");
        r.text("State, the knowledge index and the start-up archive of the installed launcher "
                + "(\\fBSLURMWISE_HOME\\fR). Nothing is written under the install folder.");
        r.macro(".SH SEE ALSO");
        r.text("\\fBsacct\\fR(1), \\fBscontrol\\fR(1), \\fBsqueue\\fR(1), \\fBsinfo\\fR(1)");
        return r.toString();
    }

    /** Every visible subcommand below a command, depth first (kb build, kb search, ...). */
    static List<CommandSpec> subcommands(CommandSpec spec) {
        List<CommandSpec> all = new ArrayList<>();
        for (CommandLine sub : spec.subcommands().values()) {
            CommandSpec s = sub.getCommandSpec();
            if (s.usageMessage().hidden() || all.contains(s) || s.name().equals("help")) {
                continue;
            }
            all.add(s);
            all.addAll(subcommands(s));
        }
        return all.stream().distinct().toList();
    }

    /** A roff document being written; text lines are escaped by the caller. */
    private static final class Roff {
        private final StringBuilder sb = new StringBuilder();
        private final CommandSpec root;

        Roff(CommandSpec root) {
            this.root = root;
        }

        void macro(String line) {
            sb.append(line).append('\n');
        }

        void text(String line) {
            for (String l : line.split("\n")) {
                sb.append(l.startsWith(".") || l.startsWith("'") ? "\\&" + l : l).append('\n');
            }
        }

        void synopsis(CommandSpec spec) {
            macro(".PP");
            StringBuilder s = new StringBuilder("\\fB" + escape(spec.qualifiedName()) + "\\fR");
            for (OptionSpec o : spec.options()) {
                if (o.hidden() || o.inherited() || standardHelp(spec, o)) {
                    continue;
                }
                s.append(" [\\fB").append(escape(o.longestName())).append("\\fR");
                if (o.arity().max() > 0) {
                    s.append(" \\fI").append(escape(o.paramLabel())).append("\\fR");
                }
                s.append(']');
            }
            for (PositionalParamSpec p : spec.positionalParameters()) {
                if (p.hidden()) {
                    continue;
                }
                String label = "\\fI" + escape(p.paramLabel()) + "\\fR" + (p.arity().max() > 1 ? "..." : "");
                s.append(' ').append(p.arity().min() == 0 ? "[" + label + "]" : label);
            }
            if (!spec.subcommands().isEmpty()) {
                s.append(" \\fICOMMAND\\fR");
            }
            text(s.toString());
        }

        void command(CommandSpec spec) {
            macro(".SS \"" + escape(spec.qualifiedName()) + "\"");
            synopsis(spec);
            macro(".PP");
            text(escape(description(spec.usageMessage().description())));
            for (PositionalParamSpec p : spec.positionalParameters()) {
                if (p.hidden()) {
                    continue;
                }
                macro(".TP");
                macro(".I " + escape(p.paramLabel()));
                text(escape(description(p.description())));
            }
            options(spec);
        }

        void options(CommandSpec spec) {
            for (OptionSpec o : spec.options()) {
                if (o.hidden() || o.inherited() || standardHelp(spec, o)) {
                    continue;
                }
                macro(".TP");
                StringBuilder names = new StringBuilder();
                for (String n : o.names()) {
                    names.append(names.length() == 0 ? "" : ", ").append("\\fB").append(escape(n)).append("\\fR");
                }
                if (o.arity().max() > 0) {
                    names.append(" \\fI").append(escape(o.paramLabel())).append("\\fR");
                }
                text(names.toString());
                String desc = description(o.description())
                        .replace("${DEFAULT-VALUE}", String.valueOf(o.defaultValue()))
                        .replace("${COMPLETION-CANDIDATES}", o.completionCandidates() == null ? ""
                                : String.join(", ", o.completionCandidates()));
                text(escape(desc));
            }
        }

        /** --help, --version and the options every command shares (--backend, ...) are documented once, at the root. */
        private boolean standardHelp(CommandSpec spec, OptionSpec o) {
            return spec != root && (o.usageHelp() || o.versionHelp() || root.findOption(o.longestName()) != null);
        }

        private static String description(String[] lines) {
            String joined = String.join(" ", lines).replace("%n", "\n").replace("%%", "%");
            return joined.replaceAll("[ \\t]+", " ").trim();
        }

        static String escape(String s) {
            return s.replace("\\", "\\e").replace("-", "\\-");
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }

    /** Every argument a man page documents for a command: for tests. */
    static List<ArgSpec> documented(CommandSpec spec) {
        List<ArgSpec> args = new ArrayList<>();
        spec.options().stream().filter(o -> !o.hidden() && !o.inherited()).forEach(args::add);
        spec.positionalParameters().stream().filter(p -> !p.hidden()).forEach(args::add);
        return args;
    }
}
