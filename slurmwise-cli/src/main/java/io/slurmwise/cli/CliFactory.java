package io.slurmwise.cli;

import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.GlobalOptions;
import picocli.CommandLine;

import java.lang.reflect.Constructor;

/**
 * Creates the commands of one run, handing each the run's {@link Cli} through its constructor (commands know the
 * context, never the root command), and gives picocli the run's one {@link GlobalOptions} for the root's mixin.
 */
final class CliFactory implements CommandLine.IFactory {

    private final Cli cli;
    private final GlobalOptions options;

    CliFactory(Cli cli, GlobalOptions options) {
        this.cli = cli;
        this.options = options;
    }

    @Override
    public <K> K create(Class<K> type) throws Exception {
        if (type == GlobalOptions.class) {
            return type.cast(options);
        }
        Constructor<K> withContext;
        try {
            withContext = type.getDeclaredConstructor(Cli.class);
        } catch (NoSuchMethodException e) {
            return CommandLine.defaultFactory().create(type);
        }
        return withContext.newInstance(cli);
    }
}
