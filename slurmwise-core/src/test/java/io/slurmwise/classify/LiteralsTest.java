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

    @Test
    void aRequirementNeedsEveryMandatoryRunAndOneAlternativeOfEachMandatoryGroup() {
        Literals.Requirement r = Literals.requirement(
                "(?i)\\b(sbatch|salloc|srun): error: (.*\\binvalid (partition|account) name|unable to (allocate|find))");
        assertThat(r.metBy("srun: error: invalid partition name specified")).isTrue();
        assertThat(r.metBy("sbatch: error: unable to find the spool")).isTrue();
        // the prefilter's literal is there, but no alternative of the group is
        assertThat(r.metBy("srun: error: gpua017: task 3: exited with exit code 1")).isFalse();
        assertThat(r.metBy("srun: error: invalid partition")).isFalse(); // "name" is mandatory after the group
        assertThat(r.metBy("salloc error: invalid account name")).isFalse(); // ": error: " is mandatory
        // a case-sensitive pattern reads the text as it is: NCCL's "Timeout(ms)" is no TIMEOUT
        Literals.Requirement timeout = Literals.requirement("\\sTIMEOUT\\s+\\d+:\\d+|JobState=TIMEOUT\\b");
        assertThat(timeout.caseSensitive()).isTrue();
        assertThat(timeout.metBy("Timeout(ms)=600000) ran for 600023 milliseconds")).isFalse();
        assertThat(timeout.metBy("JobState=TIMEOUT Reason=TimeLimit")).isTrue();
        assertThat(r.caseSensitive()).isFalse();
    }

    @Test
    void anEscapesArgumentIsNeverReadAsLiteralText() {
        // \x41 is "A": its "41" is no text of the line, nor are a property's or an octal escape's arguments
        assertThat(Literals.required("abc\\x41defgh")).containsExactly("defgh");
        assertThat(Literals.required("abc\\x{2019}defgh")).containsExactly("defgh");
        assertThat(Literals.required("x\\p{Greek}defgh")).containsExactly("defgh");
        assertThat(Literals.required("x\\pLdefgh")).containsExactly("defgh");
        assertThat(Literals.required("x\\101defgh")).containsExactly("defgh");
        assertThat(Literals.requirement("Job\\x20failed here").metBy("Job failed here")).isTrue();
        assertThat(com.google.re2j.Pattern.compile("Job\\x20failed here").matcher("Job failed here").find()).isTrue();
    }

    @Test
    void optionalPartsAndFlagGroupsRequireNothing() {
        assertThat(Literals.requirement("(?i)colou?r (profile)? loaded").metBy("colo loaded")).isTrue();
        assertThat(Literals.requirement("(?i)colou?r (profile)? loaded").metBy("color profile")).isFalse();
        assertThat(Literals.requirement("abc(def|gh)*xyz").metBy("abcxyz")).isTrue();
        assertThat(Literals.requirement("(?P<name>word)+ and more").metBy("x and more")).isTrue();
        assertThat(Literals.requirement("ab|c")).isSameAs(Literals.Requirement.NONE);
        assertThat(Literals.requirement("(foo|x)bar")).isNotSameAs(Literals.Requirement.NONE); // "bar" is needed
        assertThat(Literals.requirement("\\Qa+b\\E?")).isSameAs(Literals.Requirement.NONE);
    }

    /**
     * The requirement is only worth having if it is exact: on every line of the bundled benchmark and of the
     * message catalogs, no bundled regex (signature, its order markers, ignore list) matches an ASCII line that its
     * requirement rejects. The lines tested are those the scanner would send to the regex (the prefilter literal).
     */
    @Test
    void noBundledPatternMatchesALineItsRequirementRejects() throws Exception {
        Taxonomy taxonomy = Taxonomy.load(null);
        List<String> patterns = new ArrayList<>();
        for (FailureKind k : taxonomy.kinds()) {
            for (Signature s : k.signatures()) {
                patterns.add(s.pattern());
                if (s.unlessAfter() != null) {
                    patterns.add(s.unlessAfter());
                }
                if (s.unlessBefore() != null) {
                    patterns.add(s.unlessBefore());
                }
                if (s.onlyWith() != null) {
                    patterns.add(s.onlyWith());
                }
            }
            k.ignore().forEach(p -> patterns.add(p.pattern()));
        }
        java.util.Set<String> lines = new java.util.LinkedHashSet<>();
        for (io.slurmwise.eval.BenchmarkCase c : io.slurmwise.eval.CaseFile.bundled(taxonomy)) {
            lines.addAll(List.of(c.log().split("\\r?\\n|\\r")));
        }
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of("..", "knowledge"))) {
            for (java.nio.file.Path f : files.filter(f -> f.toString().endsWith(".tsv")).toList()) {
                for (String row : java.nio.file.Files.readAllLines(f)) {
                    lines.addAll(List.of(row.split("\t")));
                }
            }
        }
        List<String> ascii = lines.stream().filter(l -> l.chars().allMatch(c -> c < 128)).toList();
        List<String> lowered = ascii.stream().map(LineText::lowerAscii).toList();
        List<String> wrong = new ArrayList<>();
        int matched = 0;
        int rejected = 0;
        for (String p : patterns) {
            com.google.re2j.Pattern regex = com.google.re2j.Pattern.compile(p);
            Literals.Requirement req = Literals.requirement(p);
            List<String> literals = Literals.required(p);
            for (int i = 0; i < ascii.size(); i++) {
                String low = lowered.get(i);
                if (!literals.isEmpty() && literals.stream().noneMatch(low::contains)) {
                    continue;
                }
                boolean met = req.metBy(req.caseSensitive() ? ascii.get(i) : low);
                boolean matches = regex.matcher(ascii.get(i)).find();
                matched += matches ? 1 : 0;
                rejected += met ? 0 : 1;
                if (matches && !met) {
                    wrong.add(p + "  <-  " + ascii.get(i));
                }
            }
        }
        System.out.printf("requirements: %d patterns on %d ascii lines: %d matches kept, %d prefilter hits rejected%n",
                patterns.size(), ascii.size(), matched, rejected);
        assertThat(wrong).as("lines a regex matches that its requirement rejects").isEmpty();
        assertThat(matched).isGreaterThan(2000);
        assertThat(rejected).isGreaterThan(1000);
    }
}
