package io.slurmwise.backend.real;

import io.slurmwise.config.Settings;

import java.time.Duration;
import java.util.Map;

/**
 * Timeouts and output bounds of the real backend, with the environment variables that change them. A timeout counts
 * the time slurmwise waits for the command (sacct's time to answer), not the time it spends on the rows.
 *
 * <pre>{@code
 * RealBackendConfig c = RealBackendConfig.from(Settings.fromEnvironment()); // SLURMWISE_CONTROLLER_TIMEOUT=15 ...
 * }</pre>
 *
 * @param environment       what the SLURM commands see; its PATH is where they are looked up
 * @param sacctTimeout      sacct (slurmdbd); big windows on a busy site take a while
 * @param controllerTimeout scontrol, squeue, sinfo (slurmctld); below scontrol's own ~2x MessageTimeout retry
 *                          (about 20 s with the default MessageTimeout=10), so a dead controller is reported by
 *                          slurmwise rather than waited for
 * @param maxSacctBytes     stdout kept from one buffered sacct call (a batch script; sacct's listings are read as
 *                          they are printed, unbounded, with the per-row bound of the parser)
 * @param maxOtherBytes     stdout read from one scontrol, squeue or sinfo call
 */
public record RealBackendConfig(Map<String, String> environment, Duration sacctTimeout, Duration controllerTimeout,
                                long maxSacctBytes, long maxOtherBytes) {

    public static final String SACCT_TIMEOUT_VARIABLE = "SLURMWISE_SACCT_TIMEOUT";
    public static final String CONTROLLER_TIMEOUT_VARIABLE = "SLURMWISE_CONTROLLER_TIMEOUT";
    public static final Duration DEFAULT_SACCT_TIMEOUT = Duration.ofSeconds(120);
    public static final Duration DEFAULT_CONTROLLER_TIMEOUT = Duration.ofSeconds(15);
    public static final long DEFAULT_MAX_SACCT_BYTES = 64L << 20;
    public static final long DEFAULT_MAX_OTHER_BYTES = 16L << 20;

    public RealBackendConfig {
        environment = Map.copyOf(environment);
    }

    /** Reads {@value #SACCT_TIMEOUT_VARIABLE} and {@value #CONTROLLER_TIMEOUT_VARIABLE} (seconds) from the settings. */
    public static RealBackendConfig from(Settings settings) {
        return new RealBackendConfig(settings.env(),
                seconds(settings, SACCT_TIMEOUT_VARIABLE, DEFAULT_SACCT_TIMEOUT),
                seconds(settings, CONTROLLER_TIMEOUT_VARIABLE, DEFAULT_CONTROLLER_TIMEOUT),
                DEFAULT_MAX_SACCT_BYTES, DEFAULT_MAX_OTHER_BYTES);
    }

    private static Duration seconds(Settings s, String variable, Duration fallback) {
        return s.seconds(variable, fallback, 0, 3600);
    }

    public RealBackendConfig withTimeouts(Duration sacct, Duration controller) {
        return new RealBackendConfig(environment, sacct, controller, maxSacctBytes, maxOtherBytes);
    }

    public RealBackendConfig withMaxBytes(long sacct, long other) {
        return new RealBackendConfig(environment, sacctTimeout, controllerTimeout, sacct, other);
    }

    /** How long a log may give no data before its read is given up: SLURMWISE_LOG_TIMEOUT of the environment. */
    Duration logTimeout() {
        return Settings.from(environment).logReadTimeout();
    }

    Duration timeout(SlurmTool tool) {
        return tool.asksController() ? controllerTimeout : sacctTimeout;
    }

    long maxBytes(SlurmTool tool) {
        return tool == SlurmTool.SACCT ? maxSacctBytes : maxOtherBytes;
    }
}
