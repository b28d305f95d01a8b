package io.slurmwise.stats;

import io.slurmwise.job.JobRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class EnergyModelTest {

    final EnergyModel defaults = EnergyModel.defaults();

    @Test
    void gpuModelsComeFromTheDatasheetTableMostSpecificRowFirst() {
        GpuPowerTable t = GpuPowerTable.bundled();
        assertThat(t.watts("a100")).contains(400.0);
        assertThat(t.watts("nvidia_a100-sxm4-40gb")).contains(400.0);
        assertThat(t.watts("a100-pcie-40gb")).contains(250.0);
        assertThat(t.watts("nvidia_a100_pcie_80gb")).contains(300.0);
        assertThat(t.watts("H100")).contains(700.0);
        assertThat(t.watts("h100_nvl")).contains(400.0);
        assertThat(t.watts("h200-nvl")).contains(600.0);
        assertThat(t.watts("tesla_t4")).contains(70.0);
        assertThat(t.watts("l40s")).contains(350.0);
        // a100 must not match a100x or xa100: tokens are whole words
        assertThat(t.watts("a1000")).isEmpty();
        assertThat(t.watts("mi250x")).isEmpty();
        assertThat(t.watts(null)).isEmpty();
    }

    @Test
    void powerIsGpusTimesModelWattsPlusCoresTimesWattsPerCore() {
        JobRecord a100 = Jobs.job("1", "FAILED", "gpuA100x4", "ann", 16, 1, "a100", 12, 12).build();
        assertThat(defaults.itWatts(a100)).isEqualTo(400 + 16 * 15);
        JobRecord h100 = Jobs.job("2", "FAILED", "gpuH100x8", "ann", 96, 8, "h100", 1, 1).build();
        assertThat(defaults.itWatts(h100)).isEqualTo(8 * 700 + 96 * 15);
        // a job holding two models draws each at its own figure (it was given the first model's for all four)
        JobRecord mixed = Jobs.job("4", "FAILED", "gpu", "ann", 8, 4, null, 1, 1)
                .allocTres(io.slurmwise.job.Tres.parse("cpu=8,mem=32G,node=1,gres/gpu=4,gres/gpu:a100=2,gres/gpu:v100=2"))
                .build();
        assertThat(defaults.itWatts(mixed)).isEqualTo(2 * 400 + 2 * 300 + 8 * 15);
        // a typed count short of the total: the rest at the one model named
        JobRecord part = Jobs.job("5", "FAILED", "gpu", "ann", 8, 4, null, 1, 1)
                .allocTres(io.slurmwise.job.Tres.parse("cpu=8,mem=32G,node=1,gres/gpu=4,gres/gpu:v100=2")).build();
        assertThat(defaults.itWatts(part)).isEqualTo(4 * 300 + 8 * 15);
        JobRecord untyped = Jobs.job("3", "FAILED", "gpu", "ann", 4, 2, null, 1, 1).build();
        assertThat(defaults.itWatts(untyped)).isEqualTo(2 * 400 + 4 * 15);
        assertThat(defaults.itJoules(a100, 3600)).isEqualTo(640L * 3600);
        assertThat(defaults.facilityKwh(640L * 3600 * 24)).isCloseTo(15.36, within(1e-12));
        assertThat(defaults.co2Kg(640L * 3600 * 24)).isCloseTo(15.36 * 0.37, within(1e-12));
        assertThat(defaults.toBuilder().pue(1.5).build().facilityKwh(3_600_000)).isCloseTo(1.5, within(1e-12));
        // memory: 16 cores -> 64G requested in the helper
        assertThat(defaults.toBuilder().memoryWattsPerGb(0.3725).build().itWatts(a100)).isCloseTo(640 + 64 * 0.3725, within(1e-9));
    }

    @Test
    void aFlagOverridesEveryGpuWhileTheSiteFallbackOnlyCoversUnknownModels() {
        JobRecord a100 = Jobs.job("1", "FAILED", "gpuA100x4", "ann", 0, 1, "a100", 1, 1).build();
        JobRecord untyped = Jobs.job("2", "FAILED", "gpu", "ann", 0, 1, null, 1, 1).build();
        EnergyModel fallback = defaults.toBuilder().fallbackGpuWatts(250).build();
        assertThat(fallback.itWatts(a100)).isEqualTo(400);
        assertThat(fallback.itWatts(untyped)).isEqualTo(250);
        EnergyModel uniform = defaults.toBuilder().uniformGpuWatts(300).build();
        assertThat(uniform.itWatts(a100)).isEqualTo(300);
        assertThat(uniform.itWatts(untyped)).isEqualTo(300);
        assertThat(defaults.toBuilder().uniformCpuWatts(10).partitionCpuWatts("cpu", 99).build().cpuWattsPerCore("cpu")).isEqualTo(10);
    }

    @Test
    void siteFileSetsPartitionsModelsAndTheFacility(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("energy.properties");
        Files.writeString(f, """
                # our site
                gpu.watts = 350
                gpu.model.a100 = 250
                cpu.watts-per-core = 12
                memory.watts-per-gb = 0.3725
                pue = 1.3
                carbon-intensity = 0.12
                partition.gpuH100x8.gpu.watts = 650
                partition.bigmem.cpu.watts-per-core = 20
                """);
        EnergyModel m = defaults.toBuilder().siteFile(f).build();
        assertThat(m.gpuWatts("gpuA100x4", "a100")).isEqualTo(250);
        assertThat(m.gpuWatts("gpuH100x8", "h100")).isEqualTo(650);
        assertThat(m.gpuWatts("other", "h100")).isEqualTo(700);
        assertThat(m.gpuWatts("other", null)).isEqualTo(350);
        assertThat(m.cpuWattsPerCore("bigmem")).isEqualTo(20);
        assertThat(m.cpuWattsPerCore("cpu")).isEqualTo(12);
        assertThat(m.pue()).isEqualTo(1.3);
        assertThat(m.carbonKgPerKwh()).isEqualTo(0.12);
        assertThat(m.memoryWattsPerGb()).isEqualTo(0.3725);
        assertThat(m.source()).contains("energy.properties");
        assertThat(m.describe()).contains("PUE 1.3").contains("0.12 kg CO2e/kWh").contains("12 W/core");
        assertThat(defaults.describe()).isEqualTo("400 W/GPU (or the datasheet figure of the model), 15 W/core, "
                + "PUE 1.0, 0.37 kg CO2e/kWh");
    }

    @Test
    void overridesApplyAfterTheSiteFileAndOnlyWhereGiven(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("energy.properties");
        Files.writeString(f, "pue = 1.3\ncarbon-intensity = 0.12\npartition.bigmem.cpu.watts-per-core = 20\n");
        EnergyModel m = EnergyModel.of(f, new EnergyModel.Overrides(null, 9.0, null, 1.1, null));
        assertThat(m.pue()).isEqualTo(1.1);                   // the flag wins over the file
        assertThat(m.carbonKgPerKwh()).isEqualTo(0.12);        // not given: the file's value stays
        assertThat(m.cpuWattsPerCore("bigmem")).isEqualTo(9);  // --cpu-watts is uniform, partitions included
        assertThat(m.gpuWatts("other", null)).isEqualTo(EnergyModel.DEFAULT_GPU_WATTS);
        assertThat(EnergyModel.of(null, new EnergyModel.Overrides(null, null, null, null, null)).describe())
                .isEqualTo(defaults.describe());
        assertThatThrownBy(() -> EnergyModel.of(null, new EnergyModel.Overrides(null, null, null, 0.5, null)))
                .isInstanceOf(EnergyModelException.class).hasMessageContaining("PUE must be between 1.0");
    }

    @Test
    void badSiteFilesAndValuesSayWhatIsWrong(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("e.properties");
        Files.writeString(f, "gpu.wats=300\n");
        assertThatThrownBy(() -> defaults.toBuilder().siteFile(f).build()).isInstanceOf(EnergyModelException.class)
                .hasMessageContaining("e.properties").hasMessageContaining("gpu.wats").hasMessageContaining("known keys");
        Files.writeString(f, "pue=high\n");
        assertThatThrownBy(() -> defaults.toBuilder().siteFile(f).build()).hasMessageContaining("pue=high is not a number");
        Files.writeString(f, "pue=0.8\n");
        assertThatThrownBy(() -> defaults.toBuilder().siteFile(f).build()).hasMessageContaining("PUE must be between 1.0");
        assertThatThrownBy(() -> defaults.toBuilder().siteFile(dir.resolve("nope")).build()).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> defaults.toBuilder().carbonIntensity(370).build()).hasMessageContaining("did you give grams");
        assertThatThrownBy(() -> defaults.toBuilder().uniformGpuWatts(-1).build()).hasMessageContaining("non-negative");
    }
}
