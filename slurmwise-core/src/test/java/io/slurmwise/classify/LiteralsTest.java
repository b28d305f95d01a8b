package io.slurmwise.classify;

import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Signature;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LiteralsTest {

    @Test
    void extractsTheLongestMandatoryRun() {
        assertThat(Literals.required("Detected \\d+ oom-kill event")).containsExactly(" oom-kill event");
        assertThat(Literals.required("CUDA out of memory")).containsExactly("cuda out of memory");
        assertThat(Literals.required("(?i)disk quota exceeded")).containsExactly("disk quota exceeded");
        assertThat(Literals.required("\\*\\*\\* JOB \\d+ ON \\S+ CANCELLED AT .* DUE TO TIME LIMIT"))
                .containsExactly(" due to time limit");
    }

    @Test
    void optionalCharactersAreNotRequired() {
        assertThat(Literals.required("colou?r profile")).containsExactly("r profile");
        assertThat(Literals.required("abcx*defgh")).containsExactly("defgh");
        assertThat(Literals.required("abcdex{0,2}yz")).containsExactly("abcde");
    }

    @Test
    void alternativesEachNeedALiteral() {
        assertThat(Literals.required("No space left on device|Disk quota exceeded"))
                .containsExactly("no space left on device", "disk quota exceeded");
        assertThat(Literals.required("Killed|\\d+")).isEmpty();
        assertThat(Literals.required("^(a|b)$")).isEmpty();
    }

    @Test
    void theCLibrarysCommonWordsGiveWayToADistinctiveRun() {
        // many lines carry "No such file or directory" (a plugin's library not found): the message's own words are rarer
        assertThat(Literals.required("(?i)\\berror opening\\b.*No such file or directory")).containsExactly("error opening");
        assertThat(Literals.required("No such file or directory")).containsExactly("no such file or directory");
        assertThat(Literals.required("(?i)^[\\w.+/-]+: [^:]+: No such file or directory\\s*$"))
                .containsExactly(": no such file or directory");
        assertThat(Literals.required("Permission denied.*\\bat [a-z]+ \\d+")).containsExactly("permission denied");
    }

    @Test
    void aLeadingGroupOfLiteralsJoinsTheTextAfterIt() {
        // every match starts with one of the alternatives, so each with the text after the group is required
        assertThat(Literals.required("(?i)(sbatch|salloc): error: (\\w+: )?[^:]*\\bQoS\\b"))
                .containsExactly("sbatch: error: ", "salloc: error: ");
        assertThat(Literals.required("(?i)\\b(Prolog|Epilog) failed")).containsExactly("prolog failed", "epilog failed");
        // the text after the group ends where a character is optional or repeated
        assertThat(Literals.required("(srun|salloc): errors? and more")).containsExactly("srun: error", "salloc: error");
        // and is used only when it is longer than the longest single run
        assertThat(Literals.required("(a|b): x+ and many more words")).containsExactly(" and many more words");
        assertThat(Literals.required("(ab|cd)ef+ghijklmnop")).containsExactly("ghijklmnop");
        assertThat(Literals.required("(sbatch|salloc): errors?x")).containsExactly("sbatch: error", "salloc: error");
    }

    @Test
    void groupsClassesAndEscapesBreakRuns() {
        assertThat(Literals.required("error: (foo|bar) happened here")).containsExactly(" happened here");
        assertThat(Literals.required("[Ss]egmentation fault")).containsExactly("egmentation fault");
        assertThat(Literals.required("libcuda\\.so\\.1")).containsExactly("libcuda.so.1");
        assertThat(Literals.required("\\Qa.b*c\\E")).containsExactly("a.b*c");
        assertThat(Literals.required("a[]]bcd")).containsExactly("bcd");
    }

    @Test
    void aCapitalNonAsciiLetterEndsARun() {
        assertThat(Literals.required("abÜcdef")).containsExactly("cdef");
        // a character without case is compared byte for byte and stays
        assertThat(Literals.required("ab→cdef")).containsExactly("ab→cdef");
    }

    /**
     * Every bundled signature can be prefiltered by a literal, so that a log line without it costs no regex run. A
     * pattern without one runs on every line of every log: one such signature (a balance phrasing that began with
     * an optional group) made the 300-line tail 15-30 times slower in ClassifierBenchmark. Rewrite such a pattern so
     * that each alternative holds a literal of 3 or more characters outside groups, classes and quantifiers.
     */
    @Test
    void everyBundledSignatureHasAPrefilterLiteral() {
        List<String> without = new ArrayList<>();
        for (FailureKind k : Taxonomy.load(null).kinds()) {
            for (Signature s : k.signatures()) {
                if (Literals.required(s.pattern()).isEmpty()) {
                    without.add(k.id() + ": " + s.pattern());
                }
            }
        }
        assertThat(without).as("signatures that would run on every log line").isEmpty();
    }

    @Test
    void lettersWithoutCaseAndSmallLettersOfOtherScriptsStayInTheLiteral() {
        // a translated message (glibc's po files): ideographs, kana, Hangul and small accented or Cyrillic letters
        // are compared byte for byte, so they may prefilter
        assertThat(Literals.required("段错误|セグメンテーション違反|세그멘테이션 오류"))
                .containsExactly("段错误", "セグメンテーション違反", "세그멘테이션 오류");
        assertThat(Literals.required("(?i)Ungültiger Maschinenbefehl")).containsExactly("ungültiger maschinenbefehl");
        assertThat(Literals.required("(?i)Parçalama arızası")).containsExactly("parçalama arızası");
        // a capital non-ASCII letter would be lowercased in the literal and miss the text: the run ends before it
        assertThat(Literals.required("(?i)Ошибка сегментирования")).containsExactly("шибка сегментирования");
        assertThat(Literals.required("(?i)Åtkomst nekas")).containsExactly("tkomst nekas");
        assertThat(Literals.keepsCase('ü')).isTrue();
        assertThat(Literals.keepsCase('核')).isTrue();
        assertThat(Literals.keepsCase('Ü')).isFalse();
        assertThat(Literals.keepsCase('İ')).isFalse();
        // the shortest literal is counted in UTF-8 bytes, as the automaton reads it: two ideographs are six
        assertThat(Literals.required("中止|Abandon")).containsExactly("中止", "abandon");
        assertThat(Literals.required("ab|Abandon")).isEmpty();
    }

    @Test
    void aWrappersExitStatusIsPrefilteredOnItsNumberNotOnACommonWord() {
        List<String> lits = Literals.required(io.slurmwise.taxonomy.WrapperStatus.pattern(java.util.Set.of(139, 134)));
        assertThat(lits).contains("code 134", "code 139", "returned non-zero exit status ")
                .noneMatch(l -> l.strip().equals("with") || l.length() < 8);
    }
}
