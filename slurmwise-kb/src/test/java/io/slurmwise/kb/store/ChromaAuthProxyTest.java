package io.slurmwise.kb.store;

import io.slurmwise.kb.spi.ChromaAuth;
import io.slurmwise.kb.Hit;
import io.slurmwise.kb.KbConfig;
import io.slurmwise.kb.spi.KbException;
import io.slurmwise.kb.KnowledgeBase;
import io.slurmwise.kb.embed.Embedders;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * A secured Chroma as sites run it: the real Chroma server (started by .ci/run) behind a proxy that demands a
 * token. With the token the index is built and searched through the proxy; without it, or with a wrong one, the
 * client says which setting to fix, falls back to the embedded index when Chroma is optional, and never shows
 * the token.
 */
@Tag("chroma")
class ChromaAuthProxyTest {

    private static final Taxonomy TAXONOMY = Taxonomy.load(null);
    private static final String TOKEN = "site-token-4f1e";

    private static String upstream() {
        String url = System.getProperty("slurmwise.chroma.url", System.getenv("SLURMWISE_CHROMA_URL"));
        if (url == null || url.isBlank()) {
            fail("the chroma tests need a Chroma server: start one with scripts/chroma/start.sh DIR PORT and set"
                    + " SLURMWISE_CHROMA_URL to the URL it prints");
        }
        return url;
    }

    private static KbConfig config(Path dir, String url, ChromaAuth auth, boolean required) {
        return new KbConfig(dir, Embedders.choose("hash"), url, null, "slurmwise-auth-test", auth, required, null,
                KbConfig.DEFAULT_KIND_BOOST);
    }

    @Test
    void theTokenOpensTheServerForBuildingAndSearching(@TempDir Path dir) throws Exception {
        for (String header : List.of(ChromaAuth.X_CHROMA_TOKEN, ChromaAuth.AUTHORIZATION)) {
            String expected = header.equals(ChromaAuth.AUTHORIZATION) ? "Bearer " + TOKEN : TOKEN;
            try (TokenProxy proxy = new TokenProxy(upstream(), header, expected)) {
                List<String> notices = new ArrayList<>();
                KnowledgeBase kb = KnowledgeBase.open(TAXONOMY,
                        config(dir, proxy.url(), ChromaAuth.of(TOKEN, header), true), notices::add);
                List<Hit> hits = kb.search("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", 3,
                        Set.of());
                assertThat(kb.store().name()).as(header).isEqualTo("chroma");
                assertThat(hits).as(header).isNotEmpty();
                assertThat(hits.get(0).chunk().kindId()).as(header).isEqualTo("cuda_oom");
                KnowledgeBase embedded = KnowledgeBase.open(TAXONOMY, config(dir.resolve("e"), null, null, false), m -> { });
                assertThat(hits.stream().map(h -> h.chunk().id()).toList()).as("same ranking as the embedded store")
                        .isEqualTo(embedded.search("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
                                3, Set.of()).stream().map(h -> h.chunk().id()).toList());
                assertThat(proxy.seen()).as("every request carried the token").isNotEmpty()
                        .allMatch(s -> s.endsWith(header + "=" + expected));
                assertThat(String.join("\n", notices)).doesNotContain(TOKEN);
            }
        }
    }

    @Test
    void aMissingOrWrongTokenSaysWhatToSetAndFallsBackWhenChromaIsOptional(@TempDir Path dir) throws Exception {
        try (TokenProxy proxy = new TokenProxy(upstream(), ChromaAuth.X_CHROMA_TOKEN, TOKEN)) {
            assertThatThrownBy(() -> KnowledgeBase.open(TAXONOMY, config(dir, proxy.url(), null, true), m -> { }).store())
                    .isInstanceOf(KbException.class).hasMessageContaining("set SLURMWISE_CHROMA_TOKEN");
            assertThatThrownBy(() -> KnowledgeBase.open(TAXONOMY,
                    config(dir, proxy.url(), ChromaAuth.of("not-" + TOKEN, null), true), m -> { }).store())
                    .hasMessageContaining("check SLURMWISE_CHROMA_TOKEN").hasMessageNotContaining(TOKEN);
            List<String> notices = new ArrayList<>();
            KnowledgeBase optional = KnowledgeBase.open(TAXONOMY,
                    config(dir, proxy.url(), ChromaAuth.of("not-" + TOKEN, null), false), notices::add);
            assertThat(optional.store().name()).isEqualTo("embedded");
            assertThat(optional.search("Disk quota exceeded", 1, Set.of()).get(0).chunk().kindId()).isEqualTo("disk_quota");
            assertThat(notices).anyMatch(n -> n.contains("HTTP 401") && n.contains("embedded index"));
            assertThat(String.join("\n", notices)).doesNotContain(TOKEN);
        }
    }
}
