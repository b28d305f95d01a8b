package io.slurmwise.config;

import io.slurmwise.config.Settings;
import io.slurmwise.spi.ExplainerProvider;
import io.slurmwise.spi.ProviderContext;
import io.slurmwise.spi.RetrieverProvider;
import io.slurmwise.config.SettingsException;
import io.slurmwise.diagnose.Retriever;
import io.slurmwise.diagnose.TemplateExplainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Selection by name or rank, and the loud messages when providers are missing, doubled or cannot run. */
class ProvidersTest {

    private static final Settings SETTINGS = Settings.from(Map.of("SLURMWISE_HOME", "target/providers-home"));

    /** A second "notes" retriever: two jars that both provide one name. */
    public static final class ImpostorNotes implements RetrieverProvider {
        @Override
        public String name() {
            return "notes";
        }

        @Override
        public int autoRank() {
            return 0;
        }

        @Override
        public Optional<String> unavailableReason(Settings settings) {
            return Optional.empty();
        }

        @Override
        public Retriever create(ProviderContext context) {
            throw new AssertionError("never created");
        }
    }

    /** A high-ranked retriever that cannot run here: auto must skip it and say why. */
    public static final class Offline implements RetrieverProvider {
        @Override
        public String name() {
            return "offline";
        }

        @Override
        public int autoRank() {
            return 500;
        }

        @Override
        public Optional<String> unavailableReason(Settings settings) {
            return Optional.of("its server is down");
        }

        @Override
        public Retriever create(ProviderContext context) {
            throw new AssertionError("never created");
        }
    }

    private static ClassLoader with(Path dir, Class<?>... providers) throws IOException {
        Path services = dir.resolve("META-INF/services");
        Files.createDirectories(services);
        StringBuilder lines = new StringBuilder();
        for (Class<?> p : providers) {
            lines.append(p.getName()).append('\n');
        }
        Files.writeString(services.resolve(RetrieverProvider.class.getName()), lines);
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, ProvidersTest.class.getClassLoader());
    }

    @Test
    void coreAloneHasItsDefaultsAndAutoPicksThem() {
        ClassLoader core = ProvidersTest.class.getClassLoader();
        Providers.Selection<RetrieverProvider> r = Providers.select(RetrieverProvider.class, "retriever",
                "SLURMWISE_RETRIEVER", "auto", SETTINGS, core);
        assertThat(r.provider().name()).isIn("notes", "kb");
        Providers.Selection<ExplainerProvider> e = Providers.select(ExplainerProvider.class, "explainer",
                "SLURMWISE_EXPLAINER", "template", SETTINGS, core);
        assertThat(e.provider().create(null)).isInstanceOf(TemplateExplainer.class);
        assertThat(e.reason()).isEqualTo("explainer template (requested)");
    }

    @Test
    void autoSkipsWhatCannotRunAndSaysWhy(@TempDir Path dir) throws IOException {
        Providers.Selection<RetrieverProvider> r = Providers.select(RetrieverProvider.class, "retriever",
                "SLURMWISE_RETRIEVER", "auto", SETTINGS, with(dir, Offline.class));
        assertThat(r.provider().name()).isNotEqualTo("offline");
        assertThat(r.reason()).contains("(auto; offline: its server is down)");
        assertThatThrownBy(() -> Providers.select(RetrieverProvider.class, "retriever", "SLURMWISE_RETRIEVER",
                "offline", SETTINGS, with(dir, Offline.class)))
                .isInstanceOf(SettingsException.class).hasMessage("retriever 'offline' cannot run here: its server is down");
    }

    @Test
    void anUnknownNameListsWhatThereIs() {
        assertThatThrownBy(() -> Providers.select(RetrieverProvider.class, "retriever", "SLURMWISE_RETRIEVER",
                "elastic", SETTINGS, ProvidersTest.class.getClassLoader()))
                .isInstanceOf(SettingsException.class)
                .hasMessageContaining("retriever 'elastic' is unknown; available: ")
                .hasMessageContaining("notes").hasMessageContaining("(set SLURMWISE_RETRIEVER");
    }

    @Test
    void twoProvidersWithOneNameAreRefused(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> Providers.select(RetrieverProvider.class, "retriever", "SLURMWISE_RETRIEVER", "auto",
                SETTINGS, with(dir, ImpostorNotes.class)))
                .isInstanceOf(SettingsException.class)
                .hasMessageContaining("several retrievers share a name: notes (")
                .hasMessageContaining(ImpostorNotes.class.getName())
                .hasMessageContaining("remove one of the jars");
    }

    @Test
    void noProviderAtAllSaysWhichArtifactBringsOne() {
        ClassLoader empty = new ClassLoader(null) { };
        assertThatThrownBy(() -> Providers.select(RetrieverProvider.class, "retriever", "SLURMWISE_RETRIEVER", "auto",
                SETTINGS, empty))
                .isInstanceOf(SettingsException.class)
                .hasMessageContaining("no slurmwise retriever is on the classpath")
                .hasMessageContaining("io.slurmwise:slurmwise-core");
    }
}
