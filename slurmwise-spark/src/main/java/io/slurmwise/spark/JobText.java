package io.slurmwise.spark;

import java.io.Serializable;

/**
 * One job as the Parquet converter stores it: its sacct rows verbatim (the job row and its step rows) with the
 * export's header, so one Parquet row is one whole job and the one parser reads it back exactly. {@code jobId} is
 * the job row's JobID (null for rows before an export's first job row, kept so nothing is lost).
 */
public class JobText implements Serializable {
    private static final long serialVersionUID = 1L;

    private String header;
    private String jobId;
    private String rows;

    public JobText() {
    }

    public JobText(String header, String jobId, String rows) {
        this.header = header;
        this.jobId = jobId;
        this.rows = rows;
    }

    public String getHeader() {
        return header;
    }

    public void setHeader(String header) {
        this.header = header;
    }

    public String getJobId() {
        return jobId;
    }

    public void setJobId(String jobId) {
        this.jobId = jobId;
    }

    public String getRows() {
        return rows;
    }

    public void setRows(String rows) {
        this.rows = rows;
    }
}
