package io.slurmwise.spark;

import io.airlift.compress.zstd.ZstdInputStream;
import io.slurmwise.job.SacctReader;
import io.slurmwise.stats.ExportStats;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Reads the jobs one {@link ExportSplit} owns, one job (its job row and step rows, as bytes) at a time. The cut
 * rule is {@link ExportStats#isJobRow}, the one {@code stats --input} cuts its blocks with.
 */
final class SplitReader implements Closeable {

    private static final int BUFFER = 1 << 16;

    private final ExportSplit split;
    private final InputStream in;
    private final String header;
    private final int jobIdColumn;
    private final byte[] sep;
    private final byte[] buf = new byte[BUFFER];
    private int pos;
    private int lim;
    private long offset; // absolute offset of buf[pos] (plain files; compressed ones are one split)
    private byte[] line = new byte[1024];
    private int lineLength;
    private long lineStart;
    private boolean pending; // `line` holds a job row read ahead
    private boolean done;
    // the job at hand
    private byte[] job = new byte[4096];
    private int jobLength;
    private String jobId;

    private static Configuration conf;

    /**
     * The Hadoop configuration of a task's file system (loading one reads XML: once per JVM): the defaults and
     * whatever core-site.xml the worker's classpath has.
     */
    static synchronized Configuration conf() {
        if (conf == null) {
            conf = new Configuration();
        }
        return conf;
    }

    SplitReader(ExportSplit split, Configuration conf) {
        this.split = split;
        try {
            Path path = new Path(split.getPath());
            FileSystem fs = path.getFileSystem(conf);
            FSDataInputStream raw = fs.open(path, BUFFER);
            String lower = path.getName().toLowerCase(Locale.ROOT);
            boolean compressed = false;
            if (lower.endsWith(".gz")) {
                this.in = new GZIPInputStream(raw, BUFFER);
                compressed = true;
            } else if (lower.endsWith(".zst") || lower.endsWith(".zstd")) {
                this.in = new BufferedInputStream(new ZstdInputStream(new BufferedInputStream(raw, BUFFER)), BUFFER);
                compressed = true;
            } else {
                this.in = raw;
            }
            if (!readLine()) {
                this.header = null; // an empty export
                this.jobIdColumn = -1;
                this.sep = null;
                done = true;
                return;
            }
            String h = new String(line, 0, stripCr(line, lineLength), StandardCharsets.UTF_8);
            if (h.isBlank()) {
                this.header = null;
                this.jobIdColumn = -1;
                this.sep = null;
                done = true;
                return;
            }
            SacctReader.Header parsed = SacctReader.Header.of(h);
            this.header = h;
            this.jobIdColumn = column(parsed);
            if (jobIdColumn < 0) {
                throw new ExportStats.ExportException(split.getName() + " is not a sacct -P export with a header: its"
                        + " first line has no JobID column (" + (h.length() > 120 ? h.substring(0, 120) + "..." : h)
                        + "); export it with sacct -P --format=JobID,... (without -n)", null);
            }
            this.sep = parsed.separator().getBytes(StandardCharsets.UTF_8);
            // the split in which the first row begins also takes the rows before the first job row
            long headerEnd = offset;
            boolean ownsHead = split.getStart() <= headerEnd && headerEnd < split.getEnd();
            // the later runs of the job before this split (sacct -D repeats a requeued job's id on each run) are
            // that split's: the split where a job's first run starts reads them all, as stats --input keeps them in
            // one block, so the job counts once
            String before = null;
            if (split.getStart() > headerEnd) {
                if (compressed) {
                    throw new IllegalStateException("a compressed export is read whole, not from byte "
                            + split.getStart());
                }
                before = lastJobIdBefore(raw, headerEnd, split.getStart());
                // to the first line starting at or after the split's start
                raw.seek(split.getStart() - 1);
                pos = 0;
                lim = 0;
                offset = split.getStart() - 1;
                if (!readLine()) {
                    done = true;
                }
            }
            // the rows before this split's first job row belong to the previous split's last job, and so do its runs
            while (!done) {
                if (!readLine()) {
                    done = true;
                } else if ((isJobRow() && (before == null || !before.equals(jobIdOf()))) || ownsHead) {
                    pending = true;
                    break;
                }
            }
            if (!done && lineStart >= split.getEnd()) {
                done = true;
            }
        } catch (IOException e) {
            close();
            throw new ExportStats.ExportException("cannot read " + split.getName() + ": " + e.getMessage()
                    + " (check that it is a readable sacct export, plain, .gz or .zst)", e);
        }
    }

    /** The header line of the export (null when it is empty). */
    String header() {
        return header;
    }

    /** Reads the next job of this split; false when there is none. */
    boolean nextJob() {
        if (done || !pending) {
            return false;
        }
        jobLength = 0;
        jobId = isJobRow() ? jobIdOf() : null;
        append();
        pending = false;
        try {
            while (readLine()) {
                if (isJobRow()) {
                    if (lineStart >= split.getEnd() && (jobId == null || !jobId.equals(jobIdOf()))) {
                        done = true;
                    } else {
                        pending = true;
                    }
                    return true;
                }
                append();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(new IOException("cannot read " + split.getName() + ": " + e.getMessage(), e));
        }
        done = true;
        return true;
    }

    /**
     * The JobID of the last job row that starts before {@code start} and after the header (the previous split's last
     * job), read backwards in growing windows (a job's step rows may fill many); null when there is none.
     */
    private String lastJobIdBefore(FSDataInputStream raw, long headerEnd, long start) throws IOException {
        // the line that holds byte start-1 started before this split: it is whole only with its rest after start
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        for (long at = start; ; ) {
            int n = raw.read(at, chunk, 0, chunk.length);
            if (n <= 0) {
                break;
            }
            int nl = 0;
            while (nl < n && chunk[nl] != '\n') {
                nl++;
            }
            rest.write(chunk, 0, nl);
            if (nl < n) {
                break;
            }
            at += n;
        }
        for (long window = 1 << 16; ; window *= 4) {
            long from = Math.max(headerEnd, start - window);
            byte[] head = new byte[(int) (start - from)];
            raw.readFully(from, head);
            byte[] b = Arrays.copyOf(head, head.length + rest.size());
            System.arraycopy(rest.toByteArray(), 0, b, head.length, rest.size());
            // whole lines only: from the first line break after the window's start (unless that is the header's end)
            int first = 0;
            if (from > headerEnd) {
                while (first < head.length && b[first] != '\n') {
                    first++;
                }
                first++;
            }
            // the last line is the one holding byte start-1 (empty when start-1 is a line break)
            int lineEnd = head.length > 0 && head[head.length - 1] == '\n' ? head.length - 1 : b.length;
            while (lineEnd >= first) {
                int lineStart = lineEnd - 1;
                while (lineStart >= first && b[lineStart] != '\n') {
                    lineStart--;
                }
                lineStart++;
                int stop = lineEnd > lineStart && b[lineEnd - 1] == '\r' ? lineEnd - 1 : lineEnd;
                if (lineStart >= first && ExportStats.isJobRow(b, lineStart, stop, jobIdColumn, sep)) {
                    String row = new String(b, lineStart, stop - lineStart, StandardCharsets.UTF_8);
                    return SacctReader.split(row, new String(sep, StandardCharsets.UTF_8))[jobIdColumn].strip();
                }
                lineEnd = lineStart - 1;
            }
            if (from == headerEnd) {
                return null;
            }
        }
    }

    byte[] jobBytes() {
        return job;
    }

    int jobLength() {
        return jobLength;
    }

    /** The job row's JobID; null for rows before the export's first job row. */
    String jobId() {
        return jobId;
    }

    private void append() {
        int need = jobLength + lineLength + 1;
        if (need > job.length) {
            job = Arrays.copyOf(job, Math.max(need, job.length * 2));
        }
        System.arraycopy(line, 0, job, jobLength, lineLength);
        job[jobLength + lineLength] = '\n';
        jobLength = need;
    }

    private boolean isJobRow() {
        return ExportStats.isJobRow(line, 0, stripCr(line, lineLength), jobIdColumn, sep);
    }

    private String jobIdOf() {
        String[] f = SacctReader.split(new String(line, 0, stripCr(line, lineLength), StandardCharsets.UTF_8),
                new String(sep, StandardCharsets.UTF_8));
        return f[jobIdColumn].strip();
    }

    /** One line without its '\n' into {@code line}; false at the end. */
    private boolean readLine() throws IOException {
        lineLength = 0;
        lineStart = offset;
        boolean any = false;
        while (true) {
            if (pos == lim) {
                int n = in.read(buf, 0, buf.length);
                if (n < 0) {
                    return any;
                }
                pos = 0;
                lim = n;
            }
            any = true;
            int i = pos;
            while (i < lim && buf[i] != '\n') {
                i++;
            }
            int n = i - pos;
            if (lineLength + n > line.length) {
                line = Arrays.copyOf(line, Math.max(lineLength + n, line.length * 2));
            }
            System.arraycopy(buf, pos, line, lineLength, n);
            lineLength += n;
            offset += n;
            if (i < lim) {
                pos = i + 1;
                offset++;
                return true;
            }
            pos = lim;
        }
    }

    private static int stripCr(byte[] b, int len) {
        return len > 0 && b[len - 1] == '\r' ? len - 1 : len;
    }

    private static int column(SacctReader.Header h) {
        for (int i = 0; i < h.names().size(); i++) {
            if (h.names().get(i).strip().equalsIgnoreCase("jobid")) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void close() {
        try {
            if (in != null) {
                in.close();
            }
        } catch (IOException e) {
            // reading is over; nothing to tell
        }
    }
}
