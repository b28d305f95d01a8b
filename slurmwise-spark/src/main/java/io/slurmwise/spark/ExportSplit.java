package io.slurmwise.spark;

import java.io.Serializable;

/**
 * A byte range of one export that one Spark task reads. It owns the jobs whose job row starts in
 * {@code [start, end)}: it skips the rows before its first job row (the end of the previous split's last job) and
 * reads past {@code end} to the next job row, so no job's rows are ever split between tasks. A compressed export
 * is one split (gzip and zstd streams cannot be entered in the middle). A Java bean for Spark's bean encoder.
 */
public class ExportSplit implements Serializable {
    private static final long serialVersionUID = 1L;

    private String path;
    private String name;
    private long start;
    private long end;

    public ExportSplit() {
    }

    public ExportSplit(String path, String name, long start, long end) {
        this.path = path;
        this.name = name;
        this.start = start;
        this.end = end;
    }

    /** The file system path (a Hadoop path: a local file, hdfs://, ...). */
    public String getPath() {
        return path;
    }

    public void setPath(String path) {
        this.path = path;
    }

    /** The export's name in messages and in the document's {@code backend}, as {@code stats --input} names it. */
    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public long getStart() {
        return start;
    }

    public void setStart(long start) {
        this.start = start;
    }

    /** Exclusive; {@link Long#MAX_VALUE} for a whole file. */
    public long getEnd() {
        return end;
    }

    public void setEnd(long end) {
        this.end = end;
    }

    @Override
    public String toString() {
        return name + "[" + start + "," + (end == Long.MAX_VALUE ? "end" : end) + ")";
    }
}
