package io.slurmwise.dist;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Lays out what the release archives hold beyond their fixed files (the build's assembly adds bin/, knowledge/,
 * LICENSE, README, install.sh, the modulefile): {@code lib/} with the jars trimmed of what the CLI never loads and a
 * {@code lib/classpath} file (the fixed order the launcher uses, which a start-up archive needs), and, for the
 * platform archive, a {@code runtime/} made by jlink from the modules jdeps finds.
 *
 * <p>Usage: {@code Packager DEPS_DIR CONFIG_DIR STAGE_DIR PLATFORM [jlink]}: reads the jars in DEPS_DIR and
 * CONFIG_DIR/trim.txt, CONFIG_DIR/jlink-modules.txt; writes STAGE_DIR/lib (and STAGE_DIR/runtime with "jlink").
 * PLATFORM is "all" (every platform's natives kept) or "linux-x64".
 */
public final class Packager {

    private Packager() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 4) {
            System.err.println("usage: Packager DEPS_DIR CONFIG_DIR STAGE_DIR all|linux-x64 [jlink]");
            System.exit(2);
        }
        Path deps = Path.of(args[0]);
        Path config = Path.of(args[1]);
        Path stage = Path.of(args[2]);
        String platform = args[3];
        boolean jlink = args.length > 4 && args[4].equals("jlink");

        List<Pattern> drop = trimRules(Files.readAllLines(config.resolve("trim.txt")), platform);
        Path lib = stage.resolve("lib");
        deleteTree(lib);
        Files.createDirectories(lib);
        List<Path> jars;
        try (Stream<Path> s = Files.list(deps)) {
            jars = s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        List<String> classpath = new ArrayList<>();
        long before = 0;
        long after = 0;
        for (Path jar : jars) {
            Path target = lib.resolve(jar.getFileName());
            before += Files.size(jar);
            copyTrimmed(jar, target, drop);
            after += Files.size(target);
            classpath.add(jar.getFileName().toString());
        }
        // the CLI's own jar first: its classes win, and the order is fixed for the start-up archive
        classpath.sort(Comparator.comparing((String n) -> !n.startsWith("slurmwise-cli")).thenComparing(n -> n));
        Files.write(lib.resolve("classpath"), classpath, StandardCharsets.UTF_8);
        System.out.printf("slurmwise-dist: %s: %d jars, %d MB -> %d MB%n", platform, jars.size(),
                before >> 20, after >> 20);
        if (jlink) {
            Path runtime = stage.resolve("runtime");
            deleteTree(runtime);
            Set<String> modules = modules(lib, jars, Files.readAllLines(config.resolve("jlink-modules.txt")));
            System.out.println("slurmwise-dist: jlink " + String.join(",", modules));
            run("jlink", "--add-modules", String.join(",", modules), "--output", runtime.toString(),
                    "--strip-debug", "--no-header-files", "--no-man-pages", "--generate-cds-archive");
        }
    }

    /** The patterns of trim.txt that apply to an archive ("all" lines apply to every archive). */
    static List<Pattern> trimRules(List<String> lines, String platform) {
        List<Pattern> rules = new ArrayList<>();
        for (String line : lines) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] parts = l.split("\\s+", 2);
            if (parts.length != 2) {
                throw new IllegalArgumentException("trim.txt: expected '<archive> <regex>': " + line);
            }
            if (parts[0].equals("all") || parts[0].equals(platform)) {
                rules.add(Pattern.compile(parts[1]));
            }
        }
        return rules;
    }

    /** Copies a jar without the entries a rule matches; an untouched jar is copied byte for byte. */
    static void copyTrimmed(Path jar, Path target, List<Pattern> drop) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            boolean any = zip.stream().anyMatch(e -> dropped(e.getName(), drop));
            if (!any) {
                Files.copy(jar, target);
                return;
            }
            try (OutputStream os = Files.newOutputStream(target); ZipOutputStream out = new ZipOutputStream(os)) {
                for (ZipEntry e : zip.stream().toList()) {
                    if (dropped(e.getName(), drop)) {
                        continue;
                    }
                    ZipEntry copy = new ZipEntry(e.getName());
                    copy.setTime(e.getTime());
                    out.putNextEntry(copy);
                    try (InputStream in = zip.getInputStream(e)) {
                        in.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
        }
    }

    static boolean dropped(String entry, List<Pattern> drop) {
        return drop.stream().anyMatch(p -> p.matcher(entry).matches());
    }

    /** The modules jdeps finds in the jars, plus the listed extras this JDK has. */
    static Set<String> modules(Path lib, List<Path> jars, List<String> extras) {
        // "base": the jars' module-info (under versions/9) would make jdeps resolve them as modules, and fail
        List<String> args = new ArrayList<>(List.of("--print-module-deps", "--ignore-missing-deps",
                "--multi-release", "base", "--class-path", lib + "/*"));
        jars.forEach(j -> args.add(lib.resolve(j.getFileName()).toString()));
        String out = run("jdeps", args.toArray(String[]::new)).strip();
        Set<String> modules = new TreeSet<>(List.of(out.split(",")));
        Set<String> system = new TreeSet<>();
        for (ModuleReference m : ModuleFinder.ofSystem().findAll()) {
            system.add(m.descriptor().name());
        }
        for (String line : extras) {
            String m = line.strip();
            if (!m.isEmpty() && !m.startsWith("#") && system.contains(m)) {
                modules.add(m);
            }
        }
        return modules;
    }

    /** Runs a JDK tool in this JVM; its standard output, or an exception with its error output. */
    static String run(String tool, String... args) {
        ToolProvider provider = ToolProvider.findFirst(tool)
                .orElseThrow(() -> new IllegalStateException(tool + " is not in this JDK (" + System.getProperty("java.home")
                        + "): build the runtime archive with a full JDK 17+"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = provider.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        if (code != 0) {
            throw new IllegalStateException(tool + " failed (" + code + "): " + err + out);
        }
        return out.toString();
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
