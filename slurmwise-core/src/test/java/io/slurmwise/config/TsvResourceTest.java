package io.slurmwise.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TsvResourceTest {

    @Test
    void skipsBlankAndCommentLinesAndKeepsFurtherTabsInTheLastField() {
        List<String> rows = TsvResource.read(TsvResourceTest.class, "good.tsv", "<name><TAB><rest>", 2,
                f -> f[0] + "=" + f[1]);

        assertThat(rows).containsExactly("alpha=1", "beta=2\tand\tmore");
    }

    @Test
    void aLineThatDoesNotParseIsNamedByFileAndLine() {
        assertThatThrownBy(() -> TsvResource.read(TsvResourceTest.class, "bad.tsv", "<name><TAB><number>", 2,
                f -> Integer.parseInt(f[1])))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("bad.tsv:4: expected <name><TAB><number>");
        assertThatThrownBy(() -> TsvResource.read(TsvResourceTest.class, "good.tsv", "<a><TAB><b><TAB><c><TAB><d><TAB><e>", 5,
                f -> f))
                .hasMessage("good.tsv:3: expected <a><TAB><b><TAB><c><TAB><d><TAB><e>");
    }

    @Test
    void aTableMissingFromTheJarSaysSo() {
        assertThatThrownBy(() -> TsvResource.read(TsvResourceTest.class, "absent.tsv", "<x>", 1, f -> f))
                .hasMessage("absent.tsv is missing from slurmwise-core; rebuild the jar");
    }
}
