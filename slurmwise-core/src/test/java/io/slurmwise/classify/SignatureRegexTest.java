package io.slurmwise.classify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.re2j.Pattern;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Signature;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

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

    @Test
    void everySignatureGivesItsRegexVerdictOnEveryBenchmarkLine() throws Exception {
        List<String> lines = new ArrayList<>();
        ObjectMapper m = new ObjectMapper();
        for (String row : Files.readAllLines(BenchmarkCasesTest.CASES)) {
            if (!row.isBlank()) {
                String log = m.readTree(row).path("log").asText("");
                for (String l : log.split("\n")) {
                    lines.add(l);
                    lines.add(l.toUpperCase(java.util.Locale.ROOT)); // shouted and lowered logs too
                    lines.add(l.toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        lines.add("\u212a\u0130LLED: prolog failed"); // non-ASCII folds: the original regex decides
        int fast = 0;
        for (FailureKind k : ClassifierTest.CLASSIFIER.taxonomy().kinds()) {
            for (Signature sig : k.signatures()) {
                SignatureRegex quick = SignatureRegex.of(sig.pattern(), sig.regex());
                fast += quick.lower() != null || !quick.leading().isEmpty() ? 1 : 0;
                Pattern p = sig.regex();
                for (String line : lines) {
                    assertThat(new LineText.Reading(line).find(quick))
                            .as("%s on %s", sig.pattern(), line)
                            .isEqualTo(LineText.find(p, line, quick.anchored()));
                }
            }
        }
        assertThat(fast).as("signatures that take a fast way").isGreaterThan(50);
    }
}
