package io.slurmwise.backend.real;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Outputs of the lab's SLURM 22.05 taken for this module (test resources slurm-22.05/): "$ cmd", output, "[rc=N]". */
final class RealCaptures {

    private RealCaptures() {
    }

    static String read(String name) {
        try (InputStream in = RealCaptures.class.getResourceAsStream("/slurm-22.05/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no capture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The command's output: everything between the "$ ..." line and the "[rc=N]" line. */
    static String output(String name) {
        String all = read(name);
        int start = all.indexOf('\n') + 1;
        int end = all.lastIndexOf("[rc=");
        return all.substring(start, end);
    }

    static int rc(String name) {
        String all = read(name);
        int i = all.lastIndexOf("[rc=");
        return Integer.parseInt(all.substring(i + 4, all.indexOf(']', i)));
    }
}
