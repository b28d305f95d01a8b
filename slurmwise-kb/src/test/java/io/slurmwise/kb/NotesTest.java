package io.slurmwise.kb;

import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Note;
import io.slurmwise.taxonomy.NoteSection;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every bundled note is a real fix document: Cause, What to check with exact commands, numbered Fixes with exact
 * {@code #SBATCH} lines or environment variables, Prevention, and nothing that only exists at one site.
 */
class NotesTest {

    static final Taxonomy T = Taxonomy.load(null);
    static final Pattern COMMAND = Pattern.compile("`(sacct|seff|scontrol|squeue|sinfo|sacctmgr|sshare|nvidia-smi|quota|lfs|df|du|"
            + "ldd|module|python|srun|namei|ls|id|lscpu|grep|ulimit|env|strings|objdump|cuobjdump|findmnt|ip|echo|"
            + "which|type|scancel|sbatch|find|getent|/usr/bin/time|sstat|sreport)\\b[^`]*`");
    /** Names of the bundled mock cluster: a note that mentions them is about one site, not about SLURM. */
    static final List<String> SITE_WORDS = List.of("gpuA100x4", "gpuH100x8", "largemem", "gpua0", "gpuh0", "cn0",
            "alice", "llm-lab", "genomics", "climate-model", "astro-ml", "vision-lab", "cfd-sim");

    static NoteSection section(Note n, String heading) {
        Optional<NoteSection> s = n.section(heading);
        assertThat(s).as(n.source() + " has a '## " + heading + "' section").isPresent();
        assertThat(s.get().text()).as(n.source() + " " + heading).isNotBlank();
        return s.get();
    }

    @Test
    void everyNoteHasTheFourSectionsInOrder() {
        for (FailureKind k : T.kinds()) {
            Note n = k.note();
            List<String> headings = n.sections().stream().map(s -> s.heading().toLowerCase(Locale.ROOT)).toList();
            assertThat(headings.subList(0, 4)).as(n.source())
                    .containsExactly("cause", "what to check", "fixes", "prevention");
        }
    }

    @Test
    void whatToCheckGivesExactCommands() {
        for (FailureKind k : T.kinds()) {
            String text = section(k.note(), "What to check").text();
            long commands = COMMAND.matcher(text).results().count();
            assertThat(commands).as(k.note().source() + ": commands in What to check").isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void fixesAreNumberedAndConcrete() {
        for (FailureKind k : T.kinds()) {
            NoteSection fixes = section(k.note(), "Fixes");
            List<String> items = fixes.numberedItems();
            assertThat(items).as(k.note().source() + ": numbered fixes").hasSizeGreaterThanOrEqualTo(4);
            assertThat(fixes.text()).as(k.note().source() + ": an exact #SBATCH line or environment variable")
                    .containsPattern("#SBATCH --[a-z-]+|export [A-Z_]+=|[A-Z][A-Z_]{3,}=");
            long concrete = items.stream().filter(i -> i.contains("`")).count();
            assertThat(concrete).as(k.note().source() + ": fixes with a concrete command, line or value")
                    .isGreaterThanOrEqualTo(items.size() - 1);
        }
    }

    @Test
    void notesAreSiteNeutral() {
        for (FailureKind k : T.kinds()) {
            String body = String.join("\n", k.note().sections().stream().map(NoteSection::text).toList());
            for (String w : SITE_WORDS) {
                assertThat(body).as(k.note().source() + " mentions the site-specific '" + w + "'").doesNotContain(w);
            }
        }
    }
}
