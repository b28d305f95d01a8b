package io.slurmwise.cli;

import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.backend.Backends;
import io.slurmwise.config.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The CLI ships both backends; auto picks real exactly where sacct is on PATH, and says why. */
class BackendSelectionTest {

    @Test
    void autoPicksRealWhereSacctIsOnPathElseMock(@TempDir Path dir) throws IOException {
        Path withSacct = Files.createDirectories(dir.resolve("slurm-bin"));
        Path sacct = withSacct.resolve("sacct");
        Files.writeString(sacct, "#!/bin/sh\necho 'slurm 22.05.8'\n");
        Files.setPosixFilePermissions(sacct, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path without = Files.createDirectories(dir.resolve("empty-bin"));

        Backends.Selection real = Backends.select(Settings.from(Map.of("PATH", without + ":" + withSacct)));
        assertThat(real.backend().name()).isEqualTo("real");
        assertThat(real.reason()).isEqualTo("backend real (auto)");

        Backends.Selection mock = Backends.select(Settings.from(Map.of("PATH", without.toString())));
        assertThat(mock.backend().name()).isEqualTo("mock");
        assertThat(mock.reason()).isEqualTo("backend mock (auto; real: sacct is not on PATH)");
    }

    @Test
    void askingForRealWithoutSacctIsABackendErrorThatSaysWhy(@TempDir Path dir) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = Main.run(new String[] {"diagnose", "1001"}, new java.io.PrintWriter(out), new java.io.PrintWriter(err),
                Map.of("SLURMWISE_BACKEND", "real", "PATH", dir.toString()), false);
        assertThat(code).isEqualTo(ExitCodes.BACKEND);
        assertThat(err.toString()).contains("backend 'real' cannot run here: sacct is not on PATH");
    }
}
