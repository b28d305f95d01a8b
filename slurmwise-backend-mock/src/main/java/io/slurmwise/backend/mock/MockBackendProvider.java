package io.slurmwise.backend.mock;

import io.slurmwise.backend.BackendProvider;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.config.Settings;

import java.nio.file.Files;
import java.util.Optional;

/** Provides the {@code mock} backend: the bundled cluster, or SLURMWISE_MOCK_DIR's fixtures. */
public final class MockBackendProvider implements BackendProvider {

    @Override
    public String name() {
        return "mock";
    }

    @Override
    public Optional<String> unavailableReason(Settings settings) {
        if (settings.mockDir() != null && !Files.isRegularFile(settings.mockDir().resolve(MockBackend.SACCT_FILE))) {
            return Optional.of("SLURMWISE_MOCK_DIR=" + settings.mockDir() + " has no " + MockBackend.SACCT_FILE
                    + " (write one with sacct -P --format=" + String.join(",", io.slurmwise.job.SacctReader.FIELDS) + ")");
        }
        return Optional.empty();
    }

    @Override
    public int autoRank() {
        return 0;
    }

    @Override
    public SlurmBackend create(Settings settings) {
        return create(settings, null);
    }

    @Override
    public SlurmBackend create(Settings settings, java.util.function.Consumer<String> notices) {
        return settings.mockDir() == null ? MockBackend.bundled() : MockBackend.fromFolder(settings.mockDir(), notices);
    }
}
