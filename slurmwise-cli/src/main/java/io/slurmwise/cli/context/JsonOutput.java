package io.slurmwise.cli.context;

import picocli.CommandLine.Option;

/**
 * The {@code --json} option of the commands that print a JSON document. Its help text names each command's schema;
 * the texts are in the root command's resource bundle ({@code io/slurmwise/cli/options.properties}), keyed by the
 * command's qualified name ({@code slurmwise.diagnose.json}).
 */
public final class JsonOutput {

    @Option(names = "--json", descriptionKey = "json",
            description = "Machine-readable output: a JSON document whose \"schema\" field names its format.")
    private boolean json;

    /** True when the command should print JSON instead of text. */
    public boolean enabled() {
        return json;
    }
}
