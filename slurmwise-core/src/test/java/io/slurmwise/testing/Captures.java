package io.slurmwise.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Real outputs of a SLURM 22.05 cluster (copied from the shared reference captures) as test fixtures. */
public final class Captures {

    private Captures() {
    }

    public static String read(String path) {
        try (InputStream in = Captures.class.getResourceAsStream("/captures-22.05/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no capture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The output blocks of a capture file: the lines after each "$ command" line, up to the "[rc=N]" line. */
    public static List<String> outputs(String path) {
        List<String> blocks = new ArrayList<>();
        StringBuilder cur = null;
        for (String line : read(path).split("\n", -1)) {
            if (line.startsWith("$ ")) {
                cur = new StringBuilder();
            } else if (line.startsWith("[rc=") && cur != null) {
                blocks.add(cur.toString().strip() + "\n");
                cur = null;
            } else if (cur != null) {
                cur.append(line).append('\n');
            }
        }
        return blocks;
    }
}
