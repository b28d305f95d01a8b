package io.slurmwise.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The Java API example in README.md compiles and runs, exactly as printed there. */
class ReadmeExampleTest {

    @Test
    void theReadmeExampleCompilesAndRuns(@TempDir Path dir) throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertThat(m.find()).as("README.md has a ```java example").isTrue();
        String source = m.group(1);
        Matcher cls = Pattern.compile("public class (\\w+)").matcher(source);
        assertThat(cls.find()).as("the example is a public class").isTrue();
        Path file = dir.resolve(cls.group(1) + ".java");
        Files.writeString(file, source);

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, null, diagnostics, "-cp", System.getProperty("java.class.path"),
                "-d", dir.toString(), file.toString());
        assertThat(rc).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            loader.loadClass(cls.group(1)).getMethod("main", String[].class).invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(saved);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).contains("oom");
    }
}
