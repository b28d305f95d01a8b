package io.slurmwise.dist;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PackagerTest {

    private static final List<String> TRIM = read("src/dist/trim.txt");

    @Test
    void debugSymbolsGoFromEveryArchiveOtherPlatformsOnlyFromTheLinuxOne() {
        List<Pattern> all = Packager.trimRules(TRIM, "all");
        List<Pattern> linux = Packager.trimRules(TRIM, "linux-x64");
        String pdb = "ai/onnxruntime/native/win-x64/onnxruntime.pdb";
        String dsym = "ai/onnxruntime/native/osx-x64/libonnxruntime.dylib.dSYM/Contents/Resources/DWARF/libonnxruntime.dylib";
        String winDll = "ai/onnxruntime/native/win-x64/onnxruntime.dll";
        String linuxSo = "ai/onnxruntime/native/linux-x64/libonnxruntime.so";
        assertThat(Packager.dropped(pdb, all)).isTrue();
        assertThat(Packager.dropped(dsym, all)).isTrue();
        assertThat(Packager.dropped(winDll, all)).isFalse();
        assertThat(Packager.dropped(winDll, linux)).isTrue();
        assertThat(Packager.dropped(linuxSo, linux)).isFalse();
        assertThat(Packager.dropped("native/lib/osx-aarch64/cpu/libtokenizers.dylib", linux)).isTrue();
        assertThat(Packager.dropped("native/lib/linux-x86_64/cpu/libtokenizers.so", linux)).isFalse();
        assertThat(Packager.dropped("com/sun/jna/win32-x86-64/jnidispatch.dll", linux)).isTrue();
        assertThat(Packager.dropped("com/sun/jna/linux-x86-64/libjnidispatch.so", linux)).isFalse();
        // JNA's own classes in platform-named packages stay
        assertThat(Packager.dropped("com/sun/jna/win32/W32APIOptions.class", linux)).isFalse();
        assertThat(Packager.dropped("ai/onnxruntime/OrtSession.class", linux)).isFalse();
    }

    @Test
    void aMalformedRuleIsRefused() {
        assertThatThrownBy(() -> Packager.trimRules(List.of("all"), "all"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trim.txt");
    }

    @Test
    void trimmingDropsOnlyMatchingEntriesAndCopiesUntouchedJarsAsTheyAre(@TempDir Path dir) throws IOException {
        Path jar = jar(dir.resolve("natives.jar"), "a/A.class", "native/win-x64/x.pdb", "native/win-x64/x.dll");
        Path trimmed = dir.resolve("out.jar");
        Packager.copyTrimmed(jar, trimmed, List.of(Pattern.compile(".*\\.pdb")));
        try (ZipFile z = new ZipFile(trimmed.toFile())) {
            assertThat(z.stream().map(ZipEntry::getName)).containsExactly("a/A.class", "native/win-x64/x.dll");
            assertThat(new String(z.getInputStream(z.getEntry("a/A.class")).readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("a/A.class");
        }
        Path plain = jar(dir.resolve("plain.jar"), "b/B.class");
        Path copy = dir.resolve("copy.jar");
        Packager.copyTrimmed(plain, copy, List.of(Pattern.compile(".*\\.pdb")));
        assertThat(Files.readAllBytes(copy)).isEqualTo(Files.readAllBytes(plain));
    }

    @Test
    void jlinkExtrasAreModuleNames() {
        for (String line : read("src/dist/jlink-modules.txt")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                assertThat(line.strip()).matches("[a-z][a-z0-9]*(\\.[a-z][a-z0-9]*)+");
            }
        }
    }

    private static Path jar(Path path, String... entries) throws IOException {
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(path))) {
            for (String e : entries) {
                out.putNextEntry(new ZipEntry(e));
                out.write(e.getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return path;
    }

    private static List<String> read(String file) {
        try {
            return Files.readAllLines(Path.of(file));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
