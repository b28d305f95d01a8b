package io.slurmwise.classify;

import org.junit.jupiter.api.Test;

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
    void groupsClassesAndEscapesBreakRuns() {
        assertThat(Literals.required("error: (foo|bar) happened here")).containsExactly(" happened here");
        assertThat(Literals.required("[Ss]egmentation fault")).containsExactly("egmentation fault");
        assertThat(Literals.required("libcuda\\.so\\.1")).containsExactly("libcuda.so.1");
        assertThat(Literals.required("\\Qa.b*c\\E")).containsExactly("a.b*c");
        assertThat(Literals.required("a[]]bcd")).containsExactly("bcd");
    }

    @Test
    void nonAsciiEndsARun() {
        assertThat(Literals.required("ab→cdef")).containsExactly("cdef");
    }
}
