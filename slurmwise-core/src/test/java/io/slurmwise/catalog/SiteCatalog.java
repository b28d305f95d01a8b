package io.slurmwise.catalog;

import java.nio.file.Path;
import java.util.List;

/**
 * Reads {@code knowledge/site-messages.tsv}: what sites' submission filters print, and what centres' documentation pages
 * say users see (format in its header).
 */
final class SiteCatalog {

    static final Path CATALOG = Path.of("..", "knowledge", "site-messages.tsv");

    /** The marker at the end of the site field of a row that is a line as it appears in a job's output or a terminal. */
    static final String LOG_MARKER = " [log]";

    private SiteCatalog() {
    }

    static List<MessageCatalog.Entry> entries() {
        return MessageCatalog.read(CATALOG);
    }

    /** Whether the row is a runtime line (a job's output, a quota tool), printed as is rather than by sbatch or salloc. */
    static boolean inJobLog(MessageCatalog.Entry e) {
        return e.owner().endsWith(LOG_MARKER);
    }

    /** The site that prints the row, without the runtime marker. */
    static String site(MessageCatalog.Entry e) {
        return inJobLog(e) ? e.owner().substring(0, e.owner().length() - LOG_MARKER.length()) : e.owner();
    }
}
