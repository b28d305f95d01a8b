package io.slurmwise.spark;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.classify.Classifier;
import io.slurmwise.stats.EnergyModel;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.taxonomy.Taxonomy;

import java.io.Serializable;
import java.nio.file.Path;
import java.time.LocalDateTime;

/**
 * What every Spark task needs to aggregate as {@code slurmwise stats --input} does, in serializable form: the
 * query (window, user, partition), the top size, the energy settings and the knowledge folder. Each task builds
 * its {@link FleetScan} from it once; the driver builds the same one to merge and report.
 *
 * @param knowledgeDir site notes (SLURMWISE_KNOWLEDGE) for the failure kinds; null: the bundled ones. Every
 *                     worker must see the folder (a shared file system)
 * @param energyFile   site energy settings (Java properties), read by every worker; null: none
 */
public record StatsSettings(LocalDateTime since, LocalDateTime until, String user, String partition, int top,
                            String knowledgeDir, String energyFile, Double gpuWatts, Double cpuWatts,
                            Double memoryWatts, Double pue, Double carbonIntensity) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Everything, every user, the bundled notes and the default energy model, top 10. */
    public static StatsSettings defaults() {
        return new StatsSettings(null, null, null, null, 10, null, null, null, null, null, null, null);
    }

    public StatsSettings withTop(int n) {
        return new StatsSettings(since, until, user, partition, n, knowledgeDir, energyFile, gpuWatts, cpuWatts,
                memoryWatts, pue, carbonIntensity);
    }

    /** The query {@code stats --input} makes: every user's jobs of the exports, in the window when one is given. */
    public JobQuery query() {
        return new JobQuery(since, until, null, user, true, partition);
    }

    public Taxonomy taxonomy() {
        return Taxonomy.load(knowledgeDir == null ? null : Path.of(knowledgeDir));
    }

    /** Defaults, then the site file, then the single settings: the order of {@code stats}' flags. */
    public EnergyModel energy() {
        return EnergyModel.of(energyFile == null ? null : Path.of(energyFile),
                new EnergyModel.Overrides(gpuWatts, cpuWatts, memoryWatts, pue, carbonIntensity));
    }

    /** The scan of records at hand (no cluster asked) that {@code stats --input} uses. */
    public FleetScan scan(Taxonomy taxonomy) {
        return FleetScan.forRecords(new Classifier(taxonomy)).energy(energy()).topJobs(top).build();
    }
}
