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
        // grep -P in the C locale (its fastest mode) reads bytes: a (?i) translation with non-ASCII letters does not
        // compile there. Such patterns are left out of grep's alternation (slurmwise still scans with all of them)
        List<String> refused = new ArrayList<>();
        for (String p : patterns) {
            if (!compilesForGrep(p)) {
                refused.add(p);
            }
        }
        patterns.removeAll(refused);
        if (!refused.isEmpty()) {
            System.out.printf(Locale.ROOT, "%d signatures grep -P cannot compile in the C locale, left out of grep's run "
                    + "(slurmwise scans with them)%n", refused.size());
        }
        // PCRE refuses one alternation of all of them ("regular expression is too large"): grep gets them in chunks,
        // one run each, and its time is the sum, as a grep-based scan would have to do
        List<String> chunks = new ArrayList<>();
        for (int i = 0; i < patterns.size(); i += GREP_CHUNK) {
            chunks.add(String.join("|", patterns.subList(i, Math.min(patterns.size(), i + GREP_CHUNK))));
        }
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
            grepLines = 0;
            for (String chunk : chunks) {
                grepLines += runGrep(chunk, log);
            }
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
        System.out.printf(Locale.ROOT, "grep -P -c (LC_ALL=C), %d runs of up to %d signatures: median %.0f ms (%.0f MB/s), "
                + "%d matching lines summed over the runs%n", chunks.size(), GREP_CHUNK, gm, mb / (gm / 1000), grepLines);
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

    /** Signatures per grep run: PCRE compiles an alternation of this many (all at once is too large). */
    private static final int GREP_CHUNK = 150;

    private static boolean compilesForGrep(String pattern) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("grep", "-P", "-c", "-e", pattern, "/dev/null");
        pb.environment().put("LC_ALL", "C");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        p.getInputStream().readAllBytes();
        return p.waitFor() <= 1;
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }
}
