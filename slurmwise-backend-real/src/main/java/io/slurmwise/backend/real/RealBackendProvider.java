package io.slurmwise.backend.real;

import io.slurmwise.backend.BackendProvider;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.config.Settings;

import java.util.Optional;

/**
 * Provides the {@code real} backend. {@code auto} prefers it (rank 100, above the mock's 0) wherever sacct is on
 * the PATH of the settings' environment.
 */
public final class RealBackendProvider implements BackendProvider {

    @Override
    public String name() {
        return "real";
    }

    @Override
    public Optional<String> unavailableReason(Settings settings) {
        CommandRunner runner = new CommandRunner(settings.env());
        return runner.locate(SlurmTool.SACCT).isPresent() ? Optional.empty() : Optional.of("sacct is not on PATH");
    }

    @Override
    public int autoRank() {
        return 100;
    }

    @Override
    public SlurmBackend create(Settings settings) {
        return RealBackend.create(RealBackendConfig.from(settings));
    }

    @Override
    public SlurmBackend create(Settings settings, java.util.function.Consumer<String> notices) {
        return RealBackend.create(RealBackendConfig.from(settings), notices);
    }
}
