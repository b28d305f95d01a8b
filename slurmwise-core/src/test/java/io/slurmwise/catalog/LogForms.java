package io.slurmwise.catalog;

import java.util.List;
import java.util.Locale;

/**
 * One message line in the forms logs really arrive in: as printed, lowercased, timestamped, prefixed, coloured, behind a
 * progress bar, and carried with escaped line breaks inside a wrapper's exception (a Python repr of a command's stderr).
 */
final class LogForms {

    private LogForms() {
    }

    static List<String> of(String line) {
        return List.of(line,
                line.toLowerCase(Locale.ROOT),
                "[2024-05-01T10:00:00.123] " + line,
                "CRASH: " + line,
                "\u001b[1;31m" + line + "\u001b[0m",
                " 45%|####      | 45/100 [00:10<00:12,  4.50it/s]\r" + line,
                "RuntimeError('Command exited with non-zero exit code.\\nExit code: 1\\nstderr:\\n" + line);
    }
}
