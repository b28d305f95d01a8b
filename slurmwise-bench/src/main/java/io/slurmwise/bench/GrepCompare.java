package io.slurmwise.bench;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Signature;
import io.slurmwise.taxonomy.Taxonomy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Classifier scan speed against GNU grep with the same signatures, on the same file, in the same run (so
 * the machine's load affects both alike). grep gets every signature as one PCRE alternation
 * ({@code grep -P -c}, PCRE JIT) in the C locale, its fastest configuration; slurmwise reads the whole
 * file and classifies it (scan, RE2 confirmation, scoring). Reports medians and the ratio.
 *
 * <pre>java -cp slurmwise-bench/target/benchmarks.jar io.slurmwise.bench.GrepCompare [MB] [runs]</pre>
 */
public final class GrepCompare {

    private GrepCompare() {
    }

    public static void main(String[] args) throws Exception {
        int mb = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        Taxonomy taxonomy = Taxonomy.load(null);
        Classifier classifier = new Classifier(taxonomy);
        List<String> patterns = new ArrayList<>();
        for (FailureKind k : taxonomy.kinds()) {
            for (Signature s : k.signatures()) {
                if (s.lastLine()) {
                    continue; // tested on one line only by the classifier; grep would test it on every line
                }
                patterns.add("(?:" + s.pattern() + ")");
            }
        }
        String alternation = String.join("|", patterns);
        Path dir = Files.createTempDirectory("slurmwise-grep");
        Path log = dir.resolve("bench.log");
        Files.write(log, SyntheticLogs.ofSize((long) mb << 20));
        System.out.printf(Locale.ROOT, "%d signatures, %d MB log at %s%n", patterns.size(), mb, log);

        long[] java = new long[runs];
        long[] grep = new long[runs];
        String kind = "";
        long grepLines = 0;
        for (int i = -3; i < runs; i++) { // three warm-up rounds for both
            long t0 = System.nanoTime();
            byte[] bytes = Files.readAllBytes(log);
            Finding f = classifier.classify(JobFacts.NONE,
                    List.of(new LogTail(LogStream.STDERR, log.toString(), bytes, 1, bytes.length, null)));
            long t1 = System.nanoTime();
            grepLines = runGrep(alternation, log);
            long t2 = System.nanoTime();
            kind = f.kindId();
            if (i >= 0) {
                java[i] = t1 - t0;
                grep[i] = t2 - t1;
            }
        }
        double jm = median(java) / 1e6;
        double gm = median(grep) / 1e6;
        System.out.printf(Locale.ROOT, "slurmwise classify: median %.0f ms (%.0f MB/s), kind=%s%n", jm, mb / (jm / 1000), kind);
        System.out.printf(Locale.ROOT, "grep -P -c (LC_ALL=C): median %.0f ms (%.0f MB/s), %d matching lines%n", gm,
                mb / (gm / 1000), grepLines);
        System.out.printf(Locale.ROOT, "ratio grep/slurmwise time: %.2f (above 1 means slurmwise is faster)%n", gm / jm);
        Files.delete(log);
        Files.delete(dir);
    }

    private static long runGrep(String pattern, Path file) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("grep", "-P", "-c", "-e", pattern, file.toString());
        pb.environment().put("LC_ALL", "C");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        int rc = p.waitFor();
        if (rc > 1) {
            throw new IllegalStateException("grep failed (rc " + rc + "): " + out);
        }
        return Long.parseLong(out.lines().reduce((a, b) -> b).orElse("0"));
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }
}
