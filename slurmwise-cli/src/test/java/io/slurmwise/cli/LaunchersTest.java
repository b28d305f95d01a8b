package io.slurmwise.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both launchers (the checkout's {@code ./slurmwise} and the release archives' {@code bin/slurmwise}) start the JVM
 * so that a JVM that dies adds nothing to stdout (scripts read it) and leaves no report in the working directory
 * (an outside audit: {@code diagnose 1045 --json} printed a crash report after its JSON, exit 134, and left
 * hs_err_pid*.log in the cwd). The flags are read from the scripts and tried on a JVM that really aborts.
 */
class LaunchersTest {

    static final List<Path> LAUNCHERS = List.of(Path.of("..", "slurmwise"),
            Path.of("..", "slurmwise-dist", "src", "dist", "root", "bin", "slurmwise"));

    /** Prints a JSON line, then aborts the JVM (a fatal error, as a native library's abort is). */
    public static final class Crash {
        public static void main(String[] args) {
            System.out.println("{\"ok\":true}");
            System.out.flush();
            List<long[]> hog = new ArrayList<>();
            while (true) {
                hog.add(new long[1 << 20]);
            }
        }
    }

    private static String vmErrorsLine(Path launcher) throws IOException {
        List<String> lines = Files.readAllLines(launcher, StandardCharsets.UTF_8);
        List<String> defs = lines.stream().filter(l -> l.startsWith("vm_errors=(")).toList();
        assertThat(defs).as(launcher + " defines vm_errors once").hasSize(1);
        assertThat(lines.stream().filter(l -> l.matches("^exec \\S*java.*")).toList()).as(launcher + " exec line")
                .singleElement().satisfies(l -> assertThat(l).contains("\"${vm_errors[@]}\""));
        return defs.get(0);
    }

    @Test
    void aJvmThatAbortsLeavesStdoutToTheCommandAndNothingInTheWorkingDirectory(@TempDir Path tmp, @TempDir Path cwd)
            throws Exception {
        String line = vmErrorsLine(LAUNCHERS.get(0));
        assertThat(vmErrorsLine(LAUNCHERS.get(1))).isEqualTo(line);

        // the flags as bash expands them, one per line
        ProcessBuilder expand = new ProcessBuilder("bash", "-c", line + "; printf '%s\\n' \"${vm_errors[@]}\"");
        expand.environment().put("TMPDIR", tmp.toString());
        Process p = expand.start();
        List<String> flags = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(p.waitFor()).isZero();
        assertThat(flags).contains("-XX:+DisplayVMOutputToStderr")
                .contains("-XX:ErrorFile=" + tmp + "/slurmwise_hs_err_pid%p.log");

        assertThat(flags).contains("-XX:+SuppressFatalErrorMessage");

        Crashed plain = crash(flags, tmp.resolve("plain"), cwd);
        assertThat(plain.code()).as("the JVM really aborted").isEqualTo(134);
        assertThat(plain.out()).as("stdout holds the JSON alone").isEqualTo("{\"ok\":true}\n");
        assertThat(plain.err()).doesNotContain("{\"ok\"");

        // for a bug report: the report back (SLURMWISE_JAVA_OPTS comes after the launcher's flags), in the
        // temporary folder, never in the working directory
        List<String> report = new ArrayList<>(flags);
        report.add("-XX:-SuppressFatalErrorMessage");
        Crashed reported = crash(report, tmp.resolve("report"), cwd);
        assertThat(reported.code()).isEqualTo(134);
        assertThat(reported.out()).startsWith("{\"ok\":true}\n").contains("A fatal error has been detected");
        try (Stream<Path> left = Files.list(cwd)) {
            assertThat(left).as("nothing left in the working directory").isEmpty();
        }
        try (Stream<Path> reports = Files.list(tmp)) {
            assertThat(reports.map(f -> f.getFileName().toString()))
                    .anyMatch(n -> n.startsWith("slurmwise_hs_err_pid") && n.endsWith(".log"));
        }
    }

    record Crashed(int code, String out, String err) {
    }

    private static Crashed crash(List<String> flags, Path streams, Path cwd) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(flags);
        cmd.addAll(List.of("-Xmx32m", "-XX:+CrashOnOutOfMemoryError", "-XX:-UsePerfData",
                "-cp", System.getProperty("java.class.path"), Crash.class.getName()));
        Files.createDirectories(streams);
        Path out = streams.resolve("stdout");
        Path err = streams.resolve("stderr");
        Process jvm = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        int code = jvm.waitFor();
        return new Crashed(code, Files.readString(out), Files.readString(err));
    }
}
