package io.slurmwise.catalog;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalog covers every errno string and every job state reason that scripts/slurm-catalog/extract.py found in
 * the SchedMD/slurm source (22.05 to the newest release), and lists no such string that the source lacks.
 */
class SlurmCatalogCompletenessTest {

    @Test
    void everyExtractedErrnoStringAndReasonHasACatalogEntry() {
        List<SlurmCatalog.SourceString> source = SlurmCatalog.sourceStrings();
        Set<String> catalog = SlurmCatalog.entries().stream().map(e -> e.type() + "\t" + e.text()).collect(Collectors.toSet());
        Set<String> extracted = source.stream().map(s -> s.type() + "\t" + s.text()).collect(Collectors.toSet());
        assertThat(source).as("the extracted list").hasSizeGreaterThan(500);
        assertThat(SlurmCatalog.sourceTags()).contains("slurm-22-05");
        List<String> missing = extracted.stream().filter(s -> !catalog.contains(s)).sorted().toList();
        assertThat(missing).as("SLURM strings without a catalog entry (add them to knowledge/slurm-messages.tsv)").isEmpty();
        List<String> stale = catalog.stream().filter(c -> (c.startsWith("errno\t") || c.startsWith("reason\t")) && !extracted.contains(c)).sorted().toList();
        assertThat(stale).as("catalog errno/reason entries that the SLURM source does not have").isEmpty();
        long errno = extracted.stream().filter(s -> s.startsWith("errno")).count();
        long reasons = extracted.stream().filter(s -> s.startsWith("reason")).count();
        System.out.println("SLURM catalog completeness: " + errno + " errno strings and " + reasons
                + " job state reasons of " + SlurmCatalog.sourceTags().replaceFirst("^.*SchedMD/slurm: ", "")
                + ", all in the catalog");
    }

    @Test
    void catalogRowsAreUnique() {
        List<String> keys = SlurmCatalog.entries().stream().map(e -> e.type() + "\t" + e.text()).toList();
        assertThat(keys).doesNotHaveDuplicates();
    }
}
