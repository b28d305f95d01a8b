package io.slurmwise.patch;

import java.time.Duration;
import java.util.Optional;

/**
 * Time values as sbatch's {@code --time} takes them: {@code minutes}, {@code minutes:seconds},
 * {@code hours:minutes:seconds}, {@code days-hours}, {@code days-hours:minutes}, {@code days-hours:minutes:seconds}.
 * (A bare number is minutes here, unlike sacct's durations.)
 */
final class SbatchTime {

    private SbatchTime() {
    }

    static Optional<Duration> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String t = text.strip();
        if (t.isEmpty() || t.length() > 20) {
            return Optional.empty();
        }
        try {
            long days = 0;
            String rest = t;
            int dash = t.indexOf('-');
            if (dash >= 0) {
                days = Long.parseLong(t.substring(0, dash));
                rest = t.substring(dash + 1);
                String[] p = rest.split(":", -1);
                return switch (p.length) {
                    case 1 -> Optional.of(Duration.ofDays(days).plusHours(Long.parseLong(p[0])));
                    case 2 -> Optional.of(Duration.ofDays(days).plusHours(Long.parseLong(p[0])).plusMinutes(Long.parseLong(p[1])));
                    case 3 -> Optional.of(Duration.ofDays(days).plusHours(Long.parseLong(p[0])).plusMinutes(Long.parseLong(p[1]))
                            .plusSeconds(Long.parseLong(p[2])));
                    default -> Optional.empty();
                };
            }
            String[] p = rest.split(":", -1);
            return switch (p.length) {
                case 1 -> Optional.of(Duration.ofMinutes(Long.parseLong(p[0])));
                case 2 -> Optional.of(Duration.ofMinutes(Long.parseLong(p[0])).plusSeconds(Long.parseLong(p[1])));
                case 3 -> Optional.of(Duration.ofHours(Long.parseLong(p[0])).plusMinutes(Long.parseLong(p[1]))
                        .plusSeconds(Long.parseLong(p[2])));
                default -> Optional.empty();
            };
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** {@code HH:MM:SS} below a day, {@code D-HH:MM:SS} from a day on, as sbatch and sacct print it. */
    static String format(Duration d) {
        return io.slurmwise.job.SlurmTime.format(d);
    }
}
