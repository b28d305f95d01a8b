package io.slurmwise.catalog;

import java.nio.file.Path;
import java.util.List;

/** Reads {@code knowledge/scheduler-messages.tsv}: what other batch systems and launchers print of a job's end (format in its header). */
final class SchedulerCatalog {

    static final Path CATALOG = Path.of("..", "knowledge", "scheduler-messages.tsv");

    private SchedulerCatalog() {
    }

    static List<MessageCatalog.Entry> entries() {
        return MessageCatalog.read(CATALOG);
    }
}
