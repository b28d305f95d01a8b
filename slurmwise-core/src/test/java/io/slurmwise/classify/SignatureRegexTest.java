package io.slurmwise.classify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.re2j.Pattern;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Signature;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The fast ways of testing a signature (lowered {@code (?i)}, leading literals) give the regex's own verdicts. */
class SignatureRegexTest {

    @Test
    void caseInsensitivePatternsAreLoweredExactlyOrNotAtAll() {
        assertThat(SignatureRegex.lowered("(?i)\\bHIP Out of memory")).isEqualTo("\\bhip out of memory");
        assertThat(SignatureRegex.lowered("(?i)[A-Z]\\w+Error: \\S+")).isEqualTo("[a-z]\\w+error: \\S+");
        assertThat(SignatureRegex.lowered("(?i)(?:Killed|OOM)")).isEqualTo("(?:killed|oom)");
        assertThat(SignatureRegex.lowered("Killed")).as("case-sensitive stays as written").isNull();
        assertThat(SignatureRegex.lowered("(?i)\\x41BORT")).as("a char by code").isNull();
        assertThat(SignatureRegex.lowered("(?i)[0-Z]")).as("a range with one letter end").isNull();
        assertThat(SignatureRegex.lowered("(?i)[[:upper:]]x")).isNull();
        assertThat(SignatureRegex.lowered("(?i)a(?-i)B")).as("another flag group").isNull();
        assertThat(SignatureRegex.lowered("(?i)caf\u00e9")).as("non-ASCII").isNull();
    }

    @Test
    void leadingLiteralsAreOnlyTakenFromAGroupEveryMatchStartsWith() {
        assertThat(Literals.leading("(?i)\\b(Prolog|Epilog) failed")).containsExactly("prolog", "epilog");
        assertThat(Literals.leading("(can't|cannot) (open|read)")).containsExactly("can't", "cannot");
        assertThat(Literals.leading("(?:srun|sbatch): error")).containsExactly("srun", "sbatch");
        assertThat(Literals.leading("(a|bc)? failed")).as("optional group").isEmpty();
        assertThat(Literals.leading("(x|y)z|w")).as("top-level alternative").isEmpty();
        assertThat(Literals.leading("(E\\w+|OOM) x")).as("not a plain literal").isEmpty();
        assertThat(Literals.leading("Killed")).isEmpty();
    }

    /**
     * One distinct benchmark line in {@code slurmwise.sweep.every} (16 in every build, a quick pass of about half a minute;
     * the fuzz profile, which CI runs once, sets 1: every line as written, shouted and lowered, about eight minutes).
     */
    static final int EVERY = Integer.getInteger("slurmwise.sweep.every", 16);

    @Test
    @Tag("fuzz")
    void everySignatureGivesItsRegexVerdictOnTheBenchmarkLines() throws Exception {
        Set<String> distinct = new LinkedHashSet<>();
        ObjectMapper m = new ObjectMapper();
        for (String row : Files.readAllLines(BenchmarkCasesTest.CASES)) {
            if (!row.isBlank()) {
                String log = m.readTree(row).path("log").asText("");
                for (String l : log.split("\n")) {
                    distinct.add(l);
                    distinct.add(l.toUpperCase(java.util.Locale.ROOT)); // shouted and lowered logs too
                    distinct.add(l.toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        List<String> lines = new ArrayList<>();
        int i = 0;
        for (String l : distinct) {
            if (i++ % EVERY == 0) {
                lines.add(l);
            }
        }
        lines.add("\u212a\u0130LLED: prolog failed"); // non-ASCII folds: the original regex decides
        int fast = 0;
        long compared = 0;
        for (FailureKind k : ClassifierTest.CLASSIFIER.taxonomy().kinds()) {
            for (Signature sig : k.signatures()) {
                SignatureRegex quick = SignatureRegex.of(sig.pattern(), sig.regex());
                fast += quick.lower() != null || !quick.leading().isEmpty() ? 1 : 0;
                Pattern p = sig.regex();
                for (String line : lines) {
                    boolean expected = LineText.find(p, line, quick.anchored());
                    if (new LineText.Reading(line).find(quick) != expected) { // AssertJ only on a difference
                        assertThat(!expected).as("%s on %s", sig.pattern(), line).isEqualTo(expected);
                    }
                    compared++;
                }
            }
        }
        System.out.printf("SignatureRegexTest: %,d signature-line pairs (1 distinct line in %d of %,d)%n",
                compared, EVERY, distinct.size());
        assertThat(fast).as("signatures that take a fast way").isGreaterThan(50);
        assertThat(lines).as("lines compared").hasSizeGreaterThan(distinct.size() / EVERY);
    }
}
