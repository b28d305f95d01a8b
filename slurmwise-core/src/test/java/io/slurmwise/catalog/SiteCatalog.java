package io.slurmwise.catalog;

import java.nio.file.Path;
import java.util.List;

/** Reads {@code knowledge/site-messages.tsv}: what sites' submission filters print (format in its header). */
final class SiteCatalog {

    static final Path CATALOG = Path.of("..", "knowledge", "site-messages.tsv");

    private SiteCatalog() {
    }

    static List<MessageCatalog.Entry> entries() {
        return MessageCatalog.read(CATALOG);
    }
}
