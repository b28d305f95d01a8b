package io.slurmwise.catalog;

import java.nio.file.Path;
import java.util.List;

/** Reads {@code knowledge/library-messages.tsv} (format in its header; rows as {@link MessageCatalog} reads them). */
final class LibraryCatalog {

    static final Path CATALOG = Path.of("..", "knowledge", "library-messages.tsv");

    private LibraryCatalog() {
    }

    static List<MessageCatalog.Entry> entries() {
        return MessageCatalog.read(CATALOG);
    }
}
