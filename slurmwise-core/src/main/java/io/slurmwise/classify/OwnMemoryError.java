package io.slurmwise.classify;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A program's own report that an allocation failed, raised inside the program, not a kill from outside: the JVM's
 * heap limit (openjdk/jdk, {@code java.lang.OutOfMemoryError: Java heap space}, {@code GC overhead limit exceeded}),
 * Python's {@code MemoryError} and numpy's {@code numpy.core._exceptions._ArrayMemoryError: Unable to allocate 1.16 TiB
 * for an array with shape (400000, 400000) and data type float64} (numpy/core/src/multiarray/alloc.c), R's {@code Error:
 * cannot allocate vector of size 12.3 Gb} and {@code cannot allocate memory block of size 16.0 Gb} (wch/r-source
 * src/main/memory.c). Such a limit is the program's own (a heap of {@code -Xmx}, an allocation larger than the node
 * would ever give): the job's record, whose peak may stay far below its {@code --mem}, does not contradict it, and
 * nothing was killed.
 *
 * <pre>{@code
 * OwnMemoryError.in(List.of("Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space"));  // true
 * OwnMemoryError.requested(List.of("... Unable to allocate 1.16 TiB for an array ..."));                  // 1.16 TiB in bytes
 * }</pre>
 */
public final class OwnMemoryError {

    private static final Pattern JAVA_HEAP = Pattern.compile(
            "(?i)java\\.lang\\.OutOfMemoryError: (?:Java heap space|GC overhead limit exceeded)");
    private static final Pattern OWN = Pattern.compile("(?i)java\\.lang\\.OutOfMemoryError: (?:Java heap space|GC overhead"
            + " limit exceeded)|\\bMemoryError\\b|Unable to allocate [0-9.]+ [KMGTPE]i?B for an array"
            + "|cannot allocate (?:vector|memory block) of size|vector memory exhausted \\(limit reached\\?\\)");
    /** numpy's size (its own binary units, "1.16 TiB"), R's ("12.3 Gb": R's units are 1024-based). */
    private static final Pattern SIZE = Pattern.compile("(?i)Unable to allocate ([0-9.]+) ([KMGTPE])i?B for an array"
            + "|cannot allocate (?:vector|memory block) of size ([0-9.]+) ([KMGT])b\\b");

    private OwnMemoryError() {
    }

    /** Whether one of the lines is a program's own failed allocation. */
    public static boolean in(List<String> lines) {
        return lines != null && lines.stream().anyMatch(l -> l != null && OWN.matcher(l).find());
    }

    /** Whether one of the lines is the JVM's heap limit reached. */
    public static boolean javaHeap(List<String> lines) {
        return lines != null && lines.stream().anyMatch(l -> l != null && JAVA_HEAP.matcher(l).find());
    }

    /** The largest single allocation the lines say the program asked for, in bytes, when one names its size. */
    public static OptionalLong requested(List<String> lines) {
        long most = -1;
        for (String l : lines == null ? List.<String>of() : lines) {
            Matcher m = l == null ? null : SIZE.matcher(l);
            while (m != null && m.find()) {
                String number = m.group(1) != null ? m.group(1) : m.group(3);
                String unit = (m.group(2) != null ? m.group(2) : m.group(4)).toUpperCase(Locale.ROOT);
                try {
                    double bytes = Double.parseDouble(number) * Math.pow(1024, "KMGTPE".indexOf(unit) + 1);
                    most = Math.max(most, (long) bytes);
                } catch (NumberFormatException e) {
                    // "1.2.3": no size
                }
            }
        }
        return most > 0 ? OptionalLong.of(most) : OptionalLong.empty();
    }

    /** A size as the error would say it: {@code 1.16 TiB}. */
    public static String describe(long bytes) {
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = bytes / 1024.0;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : "%.3g %s", v, units[u]);
    }
}
