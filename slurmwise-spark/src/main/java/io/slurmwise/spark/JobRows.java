package io.slurmwise.spark;

import java.io.Serializable;

/**
 * A block of whole jobs' sacct rows (each job row with its step rows; never a job cut in two) and the header they
 * are read with: what {@link FleetAggregator} aggregates. A Java bean for Spark's bean encoder.
 */
public class JobRows implements Serializable {
    private static final long serialVersionUID = 1L;

    private String source;
    private String header;
    private byte[] rows;

    public JobRows() {
    }

    public JobRows(String source, String header, byte[] rows) {
        this.source = source;
        this.header = header;
        this.rows = rows;
    }

    /** The export the rows come from, for messages. */
    public String getSource() {
        return source;
    }

    public void setSource(String source) {
        this.source = source;
    }

    /** The export's header line (field names and separator). */
    public String getHeader() {
        return header;
    }

    public void setHeader(String header) {
        this.header = header;
    }

    /** The rows, UTF-8, one per line. */
    public byte[] getRows() {
        return rows;
    }

    public void setRows(byte[] rows) {
        this.rows = rows;
    }
}
