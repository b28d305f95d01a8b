package io.slurmwise.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A large {@code sacct -P} export made of the mock cluster's rows (steps included) repeated, each copy with new
 * job ids: copy {@code r} gives the {@code k}-th distinct job id of the mock {@code r * 1000 + k}, so array tasks
 * stay tasks of their (new) array and every job is distinct. 5,500 copies are the 1,061,500 rows
 * (368,500 jobs).
 *
 * <pre>
 * java -cp slurmwise-bench/target/benchmarks.jar io.slurmwise.bench.MockExport /tmp/export.psv 5500
 * </pre>
 */
public final class MockExport {

    private MockExport() {
    }

    /** Writes the header and {@code copies} copies of the rows; returns the number of rows written. */
    public static long write(OutputStream out, int copies) throws IOException {
        String header = SyntheticJobs.mockSacctHeader();
        String[] rows = SyntheticJobs.mockSacctBody().split("\n");
        // each row as (index of its job id, the bytes after the id)
        Map<String, Integer> index = new HashMap<>();
        int[] ids = new int[rows.length];
        byte[][] rest = new byte[rows.length][];
        int n = 0;
        for (String row : rows) {
            int end = 0;
            while (end < row.length() && Character.isDigit(row.charAt(end))) {
                end++;
            }
            if (end == 0) {
                continue;
            }
            ids[n] = index.computeIfAbsent(row.substring(0, end), x -> index.size() + 1);
            rest[n] = (row.substring(end) + "\n").getBytes(StandardCharsets.UTF_8);
            n++;
        }
        out.write(header.getBytes(StandardCharsets.UTF_8));
        long written = 0;
        for (int r = 0; r < copies; r++) {
            for (int i = 0; i < n; i++) {
                out.write(Long.toString((long) r * 1000 + ids[i]).getBytes(StandardCharsets.US_ASCII));
                out.write(rest[i]);
                written++;
            }
        }
        return written;
    }

    /** The export in memory (for benchmarks of the parser). */
    public static byte[] bytes(int copies) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        try {
            write(b, copies);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    /** Rows per copy of the mock cluster's export. */
    public static int rowsPerCopy() {
        return (int) SyntheticJobs.mockSacctBody().lines().filter(l -> !l.isBlank()).count();
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: MockExport OUTPUT_FILE COPIES   (5500 copies = 1,061,500 rows)");
            System.exit(2);
        }
        int copies = Integer.parseInt(args[1]);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(Path.of(args[0])), 1 << 20)) {
            long rows = write(out, copies);
            System.out.println("wrote " + rows + " rows (" + copies + " copies of the mock cluster) to " + args[0]);
        }
    }
}
