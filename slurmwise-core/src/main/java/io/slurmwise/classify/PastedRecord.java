package io.slurmwise.classify;

import io.slurmwise.job.ExitCode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A job's exit code that a log carries because someone pasted its accounting record into it: a thread's or a
 * ticket's text often holds {@code sacct -j ID} (a fixed-width table under a dashed line, or {@code -P}'s bars) or
 * {@code scontrol show job ID} beside the error. Read only when the classifier has no record of its own, and only when
 * the paste is one job's: a table of several jobs, or a block without {@code JobId=}/{@code JobState=}, says nothing of
 * which job the log is. sacct's job row holds the batch script's status (its first row, the JobID without a step);
 * scontrol's {@code ExitCode=} is the same (never {@code DerivedExitCode=}, the highest of the steps).
 *
 * @param exitCode the job's exit code as pasted
 * @param line     0-based index of the pasted line that holds it, in the text read
 * @param text     that line, for evidence
 */
record PastedRecord(ExitCode exitCode, int line, String text) {

    private static final byte[] EXIT_CODE = "ExitCode".getBytes(StandardCharsets.US_ASCII);
    /** scontrol's field, not DerivedExitCode's. */
    private static final Pattern SCONTROL_EXIT = Pattern.compile("(?<![A-Za-z])ExitCode=(\\d{1,3}:\\d{1,3})\\b");
    private static final Pattern SCONTROL_JOB = Pattern.compile("(?<![A-Za-z])(?:JobId=\\d+|JobState=[A-Z_]+)");
    /** sacct's header, with the two columns that matter. */
    private static final Pattern SACCT_HEADER = Pattern.compile("^\\s*JobID\\b.*\\bExitCode\\b");
    private static final Pattern DASHES = Pattern.compile("^[\\s-]+$");
    private static final Pattern STATUS = Pattern.compile("^\\d{1,3}:\\d{1,3}$");
    /** How far a scontrol block's JobId/JobState line may be from its ExitCode line. */
    private static final int BLOCK_LINES = 12;

    /** The exit code of the one job whose record {@code text} pastes, if it pastes one. */
    static Optional<PastedRecord> find(byte[] text) {
        if (indexOf(text, EXIT_CODE) < 0) {
            return Optional.empty(); // most logs: one look, no decoding
        }
        // a table copied from a web page carries no-break spaces: read as ASCII, as the signatures read it
        // lines as the log counts them (at \n), each as a terminal shows it: a CRLF's \r dropped, a line a \r
        // overwrote read from its last part
        String[] lines = new String(PastedText.plain(text), StandardCharsets.UTF_8).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            lines[i] = l.substring(l.lastIndexOf('\r') + 1);
        }
        Optional<PastedRecord> table = sacct(lines);
        return table.isPresent() ? table : scontrol(lines);
    }

    /** A sacct table (fixed width under its dashed line, or {@code -P}'s bars) of exactly one job. */
    private static Optional<PastedRecord> sacct(String[] lines) {
        List<PastedRecord> jobs = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            if (!SACCT_HEADER.matcher(lines[i]).find()) {
                continue;
            }
            String header = lines[i];
            boolean bars = header.contains("|");
            List<int[]> spans = bars ? null : spans(i + 1 < lines.length ? lines[i + 1] : "");
            if (!bars && spans == null) {
                continue;
            }
            // sacct's column names have no spaces: its header's words, one per column even when the paste lost the
            // alignment
            String[] names = bars ? header.strip().split("\\|", -1) : header.strip().split("\\s+");
            if (!bars && names.length != spans.size()) {
                continue;
            }
            int id = column(names, "JobID");
            int exit = column(names, "ExitCode");
            if (id < 0 || exit < 0) {
                continue;
            }
            for (int r = i + (bars ? 1 : 2); r < lines.length && !lines[r].isBlank(); r++) {
                String[] row = bars ? lines[r].strip().split("\\|", -1) : cells(lines[r], spans);
                if (!bars && !STATUS.matcher(row[exit]).matches()) {
                    // a paste that lost sacct's alignment: its words, when there is one per column
                    String[] words = lines[r].strip().split("\\s+");
                    row = words.length == names.length ? words : row;
                }
                if (row.length != names.length || row[id].isEmpty()) {
                    break; // the table ended
                }
                if (row[id].contains(".")) {
                    continue; // a step's row
                }
                Optional<ExitCode> e = STATUS.matcher(row[exit]).matches() ? ExitCode.tryParse(row[exit]) : Optional.empty();
                if (e.isEmpty()) {
                    break;
                }
                jobs.add(new PastedRecord(e.get(), r, lines[r].strip()));
            }
        }
        return jobs.size() == 1 ? Optional.of(jobs.get(0)) : Optional.empty();
    }

    /** {@code scontrol show job}: one block's {@code ExitCode=}, near its {@code JobId=} or {@code JobState=}. */
    private static Optional<PastedRecord> scontrol(String[] lines) {
        List<PastedRecord> jobs = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            Matcher m = SCONTROL_EXIT.matcher(lines[i]);
            if (!m.find()) {
                continue;
            }
            boolean block = false;
            for (int j = Math.max(0, i - BLOCK_LINES); j <= i && !block; j++) {
                block = SCONTROL_JOB.matcher(lines[j]).find();
            }
            Optional<ExitCode> e = block ? ExitCode.tryParse(m.group(1)) : Optional.empty();
            if (e.isPresent()) {
                jobs.add(new PastedRecord(e.get(), i, lines[i].strip()));
            }
        }
        return jobs.size() == 1 ? Optional.of(jobs.get(0)) : Optional.empty();
    }

    /** The columns a sacct dashed line marks, or null when the line is no such line. */
    private static List<int[]> spans(String dashes) {
        if (dashes.isBlank() || !DASHES.matcher(dashes).matches()) {
            return null;
        }
        List<int[]> out = new ArrayList<>();
        int i = 0;
        while (i < dashes.length()) {
            if (dashes.charAt(i) != '-') {
                i++;
                continue;
            }
            int from = i;
            while (i < dashes.length() && dashes.charAt(i) == '-') {
                i++;
            }
            out.add(new int[] {from, i});
        }
        return out.size() >= 2 ? out : null;
    }

    private static String[] cells(String line, List<int[]> spans) {
        String[] out = new String[spans.size()];
        for (int c = 0; c < spans.size(); c++) {
            int from = Math.min(spans.get(c)[0], line.length());
            int to = c + 1 < spans.size() ? Math.min(spans.get(c + 1)[0], line.length()) : line.length();
            out[c] = line.substring(from, Math.max(from, to)).strip();
        }
        return out;
    }

    private static int column(String[] names, String name) {
        for (int c = 0; c < names.length; c++) {
            if (names[c].strip().equals(name)) {
                return c;
            }
        }
        return -1;
    }

    private static int indexOf(byte[] text, byte[] word) {
        outer:
        for (int i = 0; i + word.length <= text.length; i++) {
            for (int k = 0; k < word.length; k++) {
                if (text[i + k] != word[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
