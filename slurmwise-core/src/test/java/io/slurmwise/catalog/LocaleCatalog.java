package io.slurmwise.catalog;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads {@code knowledge/locale-messages.tsv}: the C library's, bash's and coreutils' failure messages as a user's locale
 * prints them (format in its header). Its rows have a locale column between who prints the text and the text; the
 * rest is a {@link MessageCatalog.Entry} like every other message catalog's.
 */
final class LocaleCatalog {

    static final Path CATALOG = Path.of("..", "knowledge", "locale-messages.tsv");

    /** One row: the locales whose po files give the text, and the row as the shared message-catalog entry. */
    record Row(List<String> locales, MessageCatalog.Entry entry) {
    }

    private LocaleCatalog() {
    }

    static List<Row> rows() {
        String name = CATALOG.getFileName().toString();
        return CatalogTsv.rows(CATALOG, 6).stream()
                .map(r -> new Row(Arrays.asList(r.fields()[1].split(",")),
                        new MessageCatalog.Entry(name, r.line(), r.fields()[0], r.fields()[2], r.fields()[3],
                                r.fields()[4], r.fields()[5])))
                .toList();
    }

    static List<MessageCatalog.Entry> entries() {
        return rows().stream().map(Row::entry).toList();
    }

    /** How many rows each locale has (a row two locales share counts for both). */
    static Map<String, Integer> byLocale(List<Row> rows) {
        Map<String, Integer> out = new TreeMap<>();
        rows.forEach(r -> r.locales().forEach(l -> out.merge(l, 1, Integer::sum)));
        return out;
    }
}
