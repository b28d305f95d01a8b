package io.slurmwise.kb.embed;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class OrtTempFilesTest {

    @Test
    void theNativeLibrariesFolderIsGoneOnceTheModelIsLoadedAndTheModelStillWorks() {
        MiniLmEmbedder e = MiniLmEmbedder.load(MiniLmEmbedder.Variant.QUANTIZED);

        // the field is ONNX Runtime's own; when an upgrade renames it this fails, and the clean-up needs a look
        Path dir = OrtTempFiles.extractedDirectory().orElseThrow();
        assertThat(dir.getFileName().toString()).startsWith("onnxruntime-java");
        assertThat(Files.exists(dir)).as("ONNX Runtime's extraction folder %s", dir).isFalse();
        assertThat(e.embed("slurmstepd: error: Detected 1 oom_kill event")).hasSize(384);
    }
}
