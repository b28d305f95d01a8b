package io.slurmwise.catalog;

import java.nio.file.Path;
import java.util.List;

/** Reads {@code knowledge/workflow-messages.tsv}: what workflow managers print of a SLURM job's end (format in its header). */
final class WorkflowCatalog {

    static final Path CATALOG = Path.of("..", "knowledge", "workflow-messages.tsv");

    private WorkflowCatalog() {
    }

    static List<MessageCatalog.Entry> entries() {
        return MessageCatalog.read(CATALOG);
    }
}
