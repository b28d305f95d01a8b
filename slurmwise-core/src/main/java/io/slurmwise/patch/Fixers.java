package io.slurmwise.patch;

import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Taxonomy;
import io.slurmwise.taxonomy.TaxonomyException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fixers notes can name in {@code fixers:}, by name. Every name a note lists must be here: a note naming an
 * unknown fixer is an invalid configuration, reported with the note's file.
 */
public final class Fixers {

    private final Map<String, Fixer> byName = new LinkedHashMap<>();
    private final Patterns patterns;

    private Fixers(Patterns patterns, List<Fixer> fixers) {
        this.patterns = patterns;
        for (Fixer f : fixers) {
            if (byName.put(f.name(), f) != null) {
                throw new IllegalStateException("two fixers are named " + f.name());
            }
        }
    }

    /** The fixers slurmwise ships. */
    public static Fixers bundled() {
        Patterns patterns = Patterns.bundled();
        ScriptEdits edits = new ScriptEdits(patterns);
        TimeFixer time = new TimeFixer(patterns);
        return new Fixers(patterns, List.of(new MemoryFixer(), time, new RerunTimeFixer(time), new RequeueFixer(),
                new FailedNodeFixer(patterns), new GpuNodeFixer(patterns), new NcclEnvFixer(edits),
                new CudaAllocFixer(edits), new CachesFixer(edits), new ModuleSystemFixer(patterns),
                new SharedLibraryFixer(edits), new CondaInitFixer(patterns), new PythonEnvFixer(patterns),
                new PartitionLimitsFixer(), new QosWallFixer(), new CrashSiteFixer(patterns),
                new MissingPathFixer(patterns), new OutputDirFixer(), new ExecPermissionFixer(patterns),
                new SupportedGpuFixer(patterns), new DeadlineFixer()));
    }

    /** A batch script read with the patterns these fixers share. */
    public ScriptReading read(String script) {
        return new ScriptReading(script, patterns);
    }

    /** The names, in the order above. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    public Optional<Fixer> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The fixers of one kind, in the order its note lists them. */
    public List<Fixer> of(FailureKind kind) {
        List<Fixer> out = new ArrayList<>();
        for (String n : kind.fixers()) {
            out.add(find(n).orElseThrow(() -> unknown(kind, n)));
        }
        return out;
    }

    /** Checks that every note names only known fixers. */
    public void check(Taxonomy taxonomy) {
        for (FailureKind k : taxonomy.kinds()) {
            for (String n : k.fixers()) {
                if (!byName.containsKey(n)) {
                    throw unknown(k, n);
                }
            }
        }
    }

    private TaxonomyException unknown(FailureKind kind, String name) {
        return new TaxonomyException(kind.note().source() + ": unknown fixer '" + name + "' in fixers:; known: "
                + String.join(", ", byName.keySet()) + " (see knowledge/README.md)");
    }
}
