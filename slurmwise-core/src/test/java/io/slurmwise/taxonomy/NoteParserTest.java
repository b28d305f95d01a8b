package io.slurmwise.taxonomy;

import io.slurmwise.job.JobState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NoteParserTest {

    private static final String GOOD = """
            ---
            id: cuda_oom
            title: GPU out of memory
            category: runtime
            sacct_states: [OUT_OF_MEMORY]
            explains: []
            signatures:
              - pattern: 'CUDA out of memory'
                weight: 0.95
              - pattern: 'torch\\.OutOfMemoryError'
                weight: 0.9
                stream: stderr
            ignore: ['NCCL INFO']
            checks: [rss_at_mem_limit]
            ---
            # GPU out of memory

            ## Cause
            The model did not fit.

            ## Fixes
            1. Reduce the batch size:
               `--per_device_train_batch_size 4`
            2. Set the allocator:
               ```
               export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
               ```
            """;

    @Test
    void parsesFrontMatterAndSections() {
        FailureKind k = NoteParser.parse("knowledge/cuda_oom.md", GOOD);
        assertThat(k.id()).isEqualTo("cuda_oom");
        assertThat(k.category()).isEqualTo(Category.RUNTIME);
        assertThat(k.sacctStates()).containsExactly(JobState.OUT_OF_MEMORY);
        assertThat(k.signatures()).hasSize(2);
        assertThat(k.signatures().get(1).stream()).isNotNull();
        assertThat(k.ignore()).anySatisfy(p -> assertThat(p.matcher("x NCCL INFO y").find()).isTrue());
        assertThat(k.checks()).containsExactly(Check.RSS_AT_MEM_LIMIT);
        assertThat(k.note().section("Cause")).isPresent();
        assertThat(k.note().fixes()).hasSize(2);
        assertThat(k.note().fixes().get(1)).contains("expandable_segments");
    }

    @Test
    void lastLineSignaturesAreMarkedAndTheFlagIsCheckedStrictly() {
        FailureKind k = NoteParser.parse("x.md", GOOD.replace("stream: stderr", "stream: stderr\n    last_line: true"));
        assertThat(k.signatures().get(0).lastLine()).isFalse();
        assertThat(k.signatures().get(1).lastLine()).isTrue();
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("stream: stderr", "stream: stderr\n    last_line: yes please")))
                .hasMessageStartingWith("x.md:13: last_line 'yes please' must be true or false");
    }

    /** The signature fields that name another line of the log: each field, its accessor, a value, a non-RE2 regex. */
    static Stream<Arguments> lineFields() {
        Function<Signature, String> after = Signature::unlessAfter;
        Function<Signature, String> before = Signature::unlessBefore;
        Function<Signature, String> with = Signature::onlyWith;
        return Stream.of(Arguments.of("unless_after", after, "Terminating StepId=", "(?<=x)y"),
                Arguments.of("unless_before", before, "Step created for", "(?=x)y"),
                Arguments.of("only_with", with, "memory limit at some point", "(?!x)y"));
    }

    @ParameterizedTest
    @MethodSource("lineFields")
    void aFieldNamingAnotherLineIsKeptAsWrittenAndMustBeAnRe2Regex(String field, Function<Signature, String> value,
                                                                   String regex, String notRe2) {
        FailureKind k = NoteParser.parse("x.md", withSecondSignatureField(field, regex));
        assertThat(value.apply(k.signatures().get(0))).isNull();
        assertThat(value.apply(k.signatures().get(1))).isEqualTo(regex);
        assertThatThrownBy(() -> NoteParser.parse("x.md", withSecondSignatureField(field, notRe2)))
                .hasMessageStartingWith("x.md:13: bad regex '" + notRe2 + "'");
    }

    /** {@link #GOOD} with {@code field: 'value'} on its second signature (line 13). */
    private static String withSecondSignatureField(String field, String value) {
        return GOOD.replace("stream: stderr", "stream: stderr\n    " + field + ": '" + value + "'");
    }

    @Test
    void unknownFieldIsRejectedWithFileAndLine() {
        String bad = GOOD.replace("category: runtime", "category: runtime\nseverity: high");
        assertThatThrownBy(() -> NoteParser.parse("site/cuda_oom.md", bad))
                .isInstanceOf(TaxonomyException.class)
                .hasMessageStartingWith("site/cuda_oom.md:5: unknown field 'severity'");
    }

    @Test
    void badRegexIsRejectedWithFileAndLine() {
        String bad = GOOD.replace("'CUDA out of memory'", "'CUDA (out of memory'");
        assertThatThrownBy(() -> NoteParser.parse("site/cuda_oom.md", bad))
                .hasMessageStartingWith("site/cuda_oom.md:8: bad regex");
        String backref = GOOD.replace("'CUDA out of memory'", "'(a)\\1'");
        assertThatThrownBy(() -> NoteParser.parse("x.md", backref)).hasMessageContaining("RE2 syntax");
    }

    @Test
    void otherSchemaErrorsSayWhatToFix() {
        assertThatThrownBy(() -> NoteParser.parse("x.md", "# no front matter")).hasMessageContaining("must start with a '---'");
        assertThatThrownBy(() -> NoteParser.parse("x.md", "---\nid: x\n")).hasMessageContaining("never closed");
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("weight: 0.95", "weight: 2")))
                .hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("category: runtime", "category: weird")))
                .hasMessageContaining("runtime, scheduling or terminal");
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("[OUT_OF_MEMORY]", "[SOMETIMES]")))
                .hasMessageContaining("not a SLURM job state");
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("[rss_at_mem_limit]", "[vibes]")))
                .hasMessageContaining("unknown check 'vibes'");
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("stream: stderr", "stream: both")))
                .hasMessageContaining("stdout, stderr or any");
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("id: cuda_oom", "id: Cuda-OOM")))
                .hasMessageContaining("lower case");
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("explains: []", "explains: []\nid: again")))
                .hasMessageContaining("field 'id' appears twice");
    }

    @Test
    void wrapperStatusBecomesOneSignatureOfTheOwnStatusesAndThe128PlusNOfTheExitSignals() {
        FailureKind k = NoteParser.parse("x.md", GOOD.replace("explains: []",
                "exit_signals: [11, 6]\nwrapper_status:\n  statuses: [70]\n  weight: 0.6\nexplains: []"));
        assertThat(k.signatures()).hasSize(3);
        Signature s = k.signatures().get(2);
        assertThat(s.weight()).isEqualTo(0.6);
        assertThat(s.pattern()).isEqualTo(WrapperStatus.pattern(java.util.Set.of(70, 134, 139)));
        assertThat(s.pattern()).contains("code 134\\b|").contains("code 139\\b|");
        assertThat(s.regex().matcher("Command 'x' returned non-zero exit status 139.").find()).isTrue();
        assertThat(s.regex().matcher("terminated with an error exit status (70)").find()).isTrue();
        assertThat(s.regex().matcher("terminated with an error exit status (1)").find()).isFalse();
    }

    @Test
    void wrapperStatusErrorsSayWhatToFix() {
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("explains: []", "wrapper_status:\n  weight: 0.5\nexplains: []")))
                .hasMessageStartingWith("x.md:6: wrapper_status has no status");
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("explains: []", "wrapper_status:\n  statuses: [127]\nexplains: []")))
                .hasMessageContaining("wrapper_status needs a 'weight'");
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("explains: []", "wrapper_status:\n  statuses: [300]\n  weight: 0.5\nexplains: []")))
                .hasMessageContaining("exit status '300' must be a number 1..255");
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("explains: []", "wrapper_status:\n  status: [127]\n  weight: 0.5\nexplains: []")))
                .hasMessageContaining("unknown wrapper_status field 'status'; allowed: statuses, weight");
        assertThatThrownBy(() -> NoteParser.parse("x.md", GOOD.replace("explains: []", "wrapper_status: [127]\nexplains: []")))
                .hasMessageContaining("wrapper_status must be a mapping");
    }

    @Test
    void everyShippedIgnorePatternReadsBenignTextWhateverItsCase() {
        // a benign message is fixed text: a log that a tool lowercased must stay benign (knowledge/README.md)
        for (FailureKind k : Taxonomy.load(null).kinds()) {
            assertThat(k.ignore()).allSatisfy(p -> assertThat(p.pattern()).as(k.id()).startsWith("(?i)"));
        }
    }
}
