package io.slurmwise.stats;

import io.slurmwise.job.JobRecord;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How slurmwise estimates the energy of a job: power x elapsed time, the way Green Algorithms and GA4HPC do.
 * IT power = GPUs x watts per GPU + CPU cores x watts per core + memory GB x watts per GB; the facility draws
 * PUE x that; CO2e = facility kWh x carbon intensity. Every figure is an estimate: GPUs and cores are assumed
 * busy for the whole allocation (what GA4HPC assumes). Energy SLURM measured (ConsumedEnergy) is never
 * mixed in here.
 *
 * <p>Watts per GPU, first match wins: {@link Builder#uniformGpuWatts} (a flag: every GPU), the site file's
 * {@code partition.<name>.gpu.watts}, the model named by AllocTRES ({@code gres/gpu:a100}; each model of a job that
 * holds two at its own figure) in the site file's
 * {@code gpu.model.<type>} rows or the bundled datasheet table ({@link GpuPowerTable}), then the fallback
 * {@code gpu.watts} (default 400 W). Watts per core: flag, {@code partition.<name>.cpu.watts-per-core}, then
 * {@code cpu.watts-per-core} (default 15 W).
 *
 * <pre>{@code
 * EnergyModel m = EnergyModel.builder().pue(1.2).build();
 * long joules = m.itJoules(job, job.elapsed().toSeconds());   // before PUE
 * double kwh = m.facilityKwh(joules);                          // PUE applied
 * double kg = m.co2Kg(joules);
 * }</pre>
 */
public final class EnergyModel {

    public static final double DEFAULT_GPU_WATTS = 400;
    public static final double DEFAULT_CPU_WATTS_PER_CORE = 15;
    public static final double DEFAULT_MEMORY_WATTS_PER_GB = 0;
    public static final double DEFAULT_PUE = 1.0;
    public static final double DEFAULT_CARBON_KG_PER_KWH = 0.37;
    /** The environment variable naming a site file. */
    public static final String SITE_FILE_VARIABLE = "SLURMWISE_ENERGY_FILE";

    private static final double GIB = 1024.0 * 1024 * 1024;

    private final double gpuWatts;
    private final boolean uniformGpu;
    private final double cpuWattsPerCore;
    private final boolean uniformCpu;
    private final double memoryWattsPerGb;
    private final double pue;
    private final double carbonKgPerKwh;
    private final GpuPowerTable gpuModels;
    private final Map<String, Double> partitionGpuWatts;
    private final Map<String, Double> partitionCpuWatts;
    private final String source;
    // GPU watts per (partition, GRES type): a handful of distinct keys, looked up for every job
    private final Map<String, Double> gpuCache = new ConcurrentHashMap<>();

    private EnergyModel(Builder b) {
        this.gpuWatts = b.gpuWatts;
        this.uniformGpu = b.uniformGpu;
        this.cpuWattsPerCore = b.cpuWattsPerCore;
        this.uniformCpu = b.uniformCpu;
        this.memoryWattsPerGb = b.memoryWattsPerGb;
        this.pue = b.pue;
        this.carbonKgPerKwh = b.carbonKgPerKwh;
        this.gpuModels = b.gpuModels;
        this.partitionGpuWatts = Map.copyOf(b.partitionGpuWatts);
        this.partitionCpuWatts = Map.copyOf(b.partitionCpuWatts);
        this.source = b.source;
    }

    /** 400 W per GPU (datasheet figure when AllocTRES names the model), 15 W per core, PUE 1.0, 0.37 kg/kWh. */
    public static EnergyModel defaults() {
        return builder().build();
    }

    /**
     * A builder preset with the defaults. Each setter checks its value at once and throws
     * {@link EnergyModelException} naming it, so a caller can tell a bad site file from a bad flag.
     *
     * <pre>{@code
     * EnergyModel site = EnergyModel.builder().siteFile(Path.of("/etc/slurmwise/energy.properties")).build();
     * EnergyModel m = site.toBuilder().uniformGpuWatts(300).pue(1.3).build();
     * }</pre>
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this model's settings, to change some of them. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.gpuWatts = gpuWatts;
        b.uniformGpu = uniformGpu;
        b.cpuWattsPerCore = cpuWattsPerCore;
        b.uniformCpu = uniformCpu;
        b.memoryWattsPerGb = memoryWattsPerGb;
        b.pue = pue;
        b.carbonKgPerKwh = carbonKgPerKwh;
        b.gpuModels = gpuModels;
        b.partitionGpuWatts.putAll(partitionGpuWatts);
        b.partitionCpuWatts.putAll(partitionCpuWatts);
        b.source = source;
        return b;
    }

    private static double nonNegative(String what, double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new EnergyModelException(what + " must be a non-negative number, got " + v);
        }
        return v;
    }

    /** Where the settings came from, for footers ("defaults", "site file /etc/slurmwise/energy.properties"). */
    public String source() {
        return source;
    }

    /**
     * The single settings a user gives on top of the defaults or a site file ({@code stats}' flags
     * {@code --gpu-watts --cpu-watts --memory-watts --pue --carbon-intensity}); null: not given, kept.
     */
    public record Overrides(Double gpuWatts, Double cpuWatts, Double memoryWattsPerGb, Double pue,
                            Double carbonIntensity) implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
    }

    /**
     * The model {@code stats} uses: the defaults, then the site file (null: none), then the overrides, in that
     * order. Every value is validated ({@link EnergyModelException} names the bad one).
     */
    public static EnergyModel of(Path siteFile, Overrides overrides) {
        Builder b = builder();
        if (siteFile != null) {
            b.siteFile(siteFile);
        }
        return b.apply(overrides).build();
    }

    /** Settings of an {@link EnergyModel}; every setter validates its value. */
    public static final class Builder {
        private double gpuWatts = DEFAULT_GPU_WATTS;
        private boolean uniformGpu;
        private double cpuWattsPerCore = DEFAULT_CPU_WATTS_PER_CORE;
        private boolean uniformCpu;
        private double memoryWattsPerGb = DEFAULT_MEMORY_WATTS_PER_GB;
        private double pue = DEFAULT_PUE;
        private double carbonKgPerKwh = DEFAULT_CARBON_KG_PER_KWH;
        private GpuPowerTable gpuModels = GpuPowerTable.bundled();
        private final Map<String, Double> partitionGpuWatts = new TreeMap<>();
        private final Map<String, Double> partitionCpuWatts = new TreeMap<>();
        private String source = "defaults";

        private Builder() {
        }

        /** Each override that is given (see {@link Overrides}), applied after everything set before. */
        public Builder apply(Overrides o) {
            if (o.gpuWatts() != null) {
                uniformGpuWatts(o.gpuWatts());
            }
            if (o.cpuWatts() != null) {
                uniformCpuWatts(o.cpuWatts());
            }
            if (o.memoryWattsPerGb() != null) {
                memoryWattsPerGb(o.memoryWattsPerGb());
            }
            if (o.pue() != null) {
                pue(o.pue());
            }
            if (o.carbonIntensity() != null) {
                carbonIntensity(o.carbonIntensity());
            }
            return this;
        }

        /** Every GPU draws {@code watts}, whatever its model or partition (the {@code --gpu-watts} flag). */
        public Builder uniformGpuWatts(double watts) {
            gpuWatts = nonNegative("GPU watts", watts);
            uniformGpu = true;
            return this;
        }

        /** Watts of a GPU whose model and partition have no figure (site file {@code gpu.watts}). */
        public Builder fallbackGpuWatts(double watts) {
            gpuWatts = nonNegative("GPU watts", watts);
            return this;
        }

        /** Every core draws {@code watts}, whatever its partition (the {@code --cpu-watts} flag). */
        public Builder uniformCpuWatts(double watts) {
            cpuWattsPerCore = nonNegative("CPU watts per core", watts);
            uniformCpu = true;
            return this;
        }

        /** Watts per core where the partition has no figure (site file {@code cpu.watts-per-core}). */
        public Builder fallbackCpuWatts(double watts) {
            cpuWattsPerCore = nonNegative("CPU watts per core", watts);
            return this;
        }

        public Builder memoryWattsPerGb(double watts) {
            memoryWattsPerGb = nonNegative("memory watts per GB", watts);
            return this;
        }

        /** Power usage effectiveness: 1.0 to 10 (a data centre draws at least what its IT equipment draws). */
        public Builder pue(double p) {
            if (!(p >= 1.0) || p > 10) {
                throw new EnergyModelException("PUE must be between 1.0 and 10 (a data centre draws at least what its"
                        + " IT equipment draws), got " + p);
            }
            pue = p;
            return this;
        }

        /** Carbon intensity in kg CO2e per kWh. */
        public Builder carbonIntensity(double kgPerKwh) {
            nonNegative("carbon intensity (kg CO2e per kWh)", kgPerKwh);
            if (kgPerKwh > 5) {
                throw new EnergyModelException("carbon intensity is in kg CO2e per kWh (0.37 is a typical grid); "
                        + kgPerKwh + " is too large: did you give grams?");
            }
            carbonKgPerKwh = kgPerKwh;
            return this;
        }

        public Builder gpuModel(String gresType, double watts) {
            gpuModels = gpuModels.with(gresType, nonNegative("GPU watts", watts), "site file");
            return this;
        }

        public Builder partitionGpuWatts(String partition, double watts) {
            partitionGpuWatts.put(partition, nonNegative("GPU watts of partition " + partition, watts));
            return this;
        }

        public Builder partitionCpuWatts(String partition, double watts) {
            partitionCpuWatts.put(partition, nonNegative("CPU watts per core of partition " + partition, watts));
            return this;
        }

        /**
         * Applies a site file (Java properties) over these settings. Keys: {@code gpu.watts}, {@code gpu.model.<type>},
         * {@code cpu.watts-per-core}, {@code memory.watts-per-gb}, {@code pue}, {@code carbon-intensity} (kg
         * CO2e/kWh), {@code partition.<name>.gpu.watts}, {@code partition.<name>.cpu.watts-per-core}.
         *
         * @throws EnergyModelException naming the file and key when the file is missing, a key is unknown or a
         *                              value is not a valid number
         */
        public Builder siteFile(Path file) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (NoSuchFileException e) {
                throw new EnergyModelException("energy site file " + file + " does not exist (check --energy-file or "
                        + SITE_FILE_VARIABLE + ")");
            } catch (IOException | IllegalArgumentException e) {
                throw new EnergyModelException("cannot read energy site file " + file + ": " + e.getMessage());
            }
            for (Map.Entry<String, String> e : toMap(p).entrySet()) {
                double v;
                try {
                    v = Double.parseDouble(e.getValue().strip());
                } catch (NumberFormatException x) {
                    throw new EnergyModelException(file + ": " + e.getKey() + "=" + e.getValue() + " is not a number");
                }
                try {
                    apply(e.getKey(), v);
                } catch (EnergyModelException x) {
                    throw new EnergyModelException(file + ": " + e.getKey() + ": " + x.getMessage());
                }
            }
            source = "site file " + file;
            return this;
        }

        private void apply(String key, double v) {
            switch (key) {
                case "gpu.watts" -> fallbackGpuWatts(v);
                case "cpu.watts-per-core" -> fallbackCpuWatts(v);
                case "memory.watts-per-gb" -> memoryWattsPerGb(v);
                case "pue" -> pue(v);
                case "carbon-intensity" -> carbonIntensity(v);
                default -> applyPrefixed(key, v);
            }
        }

        private void applyPrefixed(String key, double v) {
            if (key.startsWith("gpu.model.") && key.length() > "gpu.model.".length()) {
                gpuModel(key.substring("gpu.model.".length()), v);
                return;
            }
            if (key.startsWith("partition.")) {
                String rest = key.substring("partition.".length());
                if (rest.endsWith(".gpu.watts") && rest.length() > ".gpu.watts".length()) {
                    partitionGpuWatts(rest.substring(0, rest.length() - ".gpu.watts".length()), v);
                    return;
                }
                if (rest.endsWith(".cpu.watts-per-core") && rest.length() > ".cpu.watts-per-core".length()) {
                    partitionCpuWatts(rest.substring(0, rest.length() - ".cpu.watts-per-core".length()), v);
                    return;
                }
            }
            throw new EnergyModelException("unknown key; known keys: gpu.watts, gpu.model.<type>, cpu.watts-per-core, "
                    + "memory.watts-per-gb, pue, carbon-intensity, partition.<name>.gpu.watts, "
                    + "partition.<name>.cpu.watts-per-core (see the README's Stats section)");
        }

        public EnergyModel build() {
            return new EnergyModel(this);
        }
    }

    private static Map<String, String> toMap(Properties p) {
        Map<String, String> m = new TreeMap<>();
        p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }

    /** Watts one allocated GPU of this job draws. */
    public double gpuWatts(String partition, String gresType) {
        if (uniformGpu) {
            return gpuWatts;
        }
        String key = (partition == null ? "" : partition) + '\u0000' + (gresType == null ? "" : gresType);
        Double cached = gpuCache.get(key);
        if (cached != null) {
            return cached;
        }
        Double w = partition == null ? null : partitionGpuWatts.get(partition);
        if (w == null) {
            w = gpuModels.watts(gresType).orElse(gpuWatts);
        }
        gpuCache.put(key, w);
        return w;
    }

    /** Watts one allocated CPU core of a job on {@code partition} draws. */
    public double cpuWattsPerCore(String partition) {
        if (uniformCpu || partition == null) {
            return cpuWattsPerCore;
        }
        return partitionCpuWatts.getOrDefault(partition, cpuWattsPerCore);
    }

    /** IT power of the job's allocation in watts (before PUE). */
    public double itWatts(JobRecord job) {
        int gpus = job.gpus();
        double w = job.cpus() * cpuWattsPerCore(job.partition());
        if (gpus > 0) {
            // each model at its own figure: a job holding a100s and v100s drew neither 4 x 400 W nor 4 x 300 W
            Map<String, Integer> byModel = job.gpusByModel();
            int typed = 0;
            for (Map.Entry<String, Integer> e : byModel.entrySet()) {
                int n = Math.min(e.getValue(), gpus - typed);
                w += n * gpuWatts(job.partition(), e.getKey()) * io.slurmwise.job.Tres.gpuShare(e.getKey()); // MIG: its share
                typed += n;
            }
            if (typed < gpus) { // GPUs no entry types: the one model named, if only one is, else the fallback
                w += (gpus - typed) * gpuWatts(job.partition(), byModel.size() == 1 ? byModel.keySet().iterator().next() : null);
            }
        }
        if (memoryWattsPerGb > 0) {
            w += job.memoryLimit().map(d -> d.bytes() / GIB).orElse(0.0) * memoryWattsPerGb;
        }
        return w;
    }

    /** Estimated IT energy (before PUE) of {@code seconds} of the job's allocation, in whole joules. */
    public long itJoules(JobRecord job, long seconds) {
        return seconds <= 0 ? 0 : Math.round(itWatts(job) * seconds);
    }

    /** Facility energy in kWh of an IT energy in joules: PUE applied. */
    public double facilityKwh(long itJoules) {
        return itJoules * pue / 3.6e6;
    }

    /** kg CO2e of an IT energy in joules: PUE and carbon intensity applied. */
    public double co2Kg(long itJoules) {
        return facilityKwh(itJoules) * carbonKgPerKwh;
    }

    public double fallbackGpuWatts() {
        return gpuWatts;
    }

    public boolean uniformGpuWatts() {
        return uniformGpu;
    }

    public double fallbackCpuWattsPerCore() {
        return cpuWattsPerCore;
    }

    public double memoryWattsPerGb() {
        return memoryWattsPerGb;
    }

    public double pue() {
        return pue;
    }

    public double carbonKgPerKwh() {
        return carbonKgPerKwh;
    }

    public GpuPowerTable gpuModels() {
        return gpuModels;
    }

    public Map<String, Double> partitionGpuWatts() {
        return partitionGpuWatts;
    }

    public Map<String, Double> partitionCpuWatts() {
        return partitionCpuWatts;
    }

    /** One line for footers: {@code 400 W/GPU (datasheet by model), 15 W/core, PUE 1.0, 0.37 kg CO2e/kWh}. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(num(gpuWatts)).append(" W/GPU").append(uniformGpu ? " (every GPU)" : " (or the datasheet figure of the model)");
        sb.append(", ").append(num(cpuWattsPerCore)).append(" W/core");
        if (memoryWattsPerGb > 0) {
            sb.append(", ").append(num(memoryWattsPerGb)).append(" W/GB");
        }
        if (!partitionGpuWatts.isEmpty() || !partitionCpuWatts.isEmpty()) {
            sb.append(", per-partition figures for ").append(String.join(",", new java.util.TreeSet<>(
                    java.util.stream.Stream.concat(partitionGpuWatts.keySet().stream(),
                            partitionCpuWatts.keySet().stream()).toList())));
        }
        sb.append(", PUE ").append(pue == Math.rint(pue) ? num(pue) + ".0" : num(pue)).append(", ").append(num(carbonKgPerKwh)).append(" kg CO2e/kWh");
        return sb.toString();
    }

    /** 400, 0.37, 1.5: no trailing zeros. */
    static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.valueOf((long) v);
        }
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EnergyModel m && m.gpuWatts == gpuWatts && m.uniformGpu == uniformGpu
                && m.cpuWattsPerCore == cpuWattsPerCore && m.uniformCpu == uniformCpu
                && m.memoryWattsPerGb == memoryWattsPerGb && m.pue == pue && m.carbonKgPerKwh == carbonKgPerKwh
                && m.gpuModels.equals(gpuModels) && m.partitionGpuWatts.equals(partitionGpuWatts)
                && m.partitionCpuWatts.equals(partitionCpuWatts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(gpuWatts, uniformGpu, cpuWattsPerCore, uniformCpu, memoryWattsPerGb, pue, carbonKgPerKwh,
                gpuModels, partitionGpuWatts, partitionCpuWatts);
    }

    @Override
    public String toString() {
        return "EnergyModel[" + describe() + "]";
    }
}
