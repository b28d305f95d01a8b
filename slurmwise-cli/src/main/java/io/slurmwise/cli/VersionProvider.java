package io.slurmwise.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The version from the build, and the Java running it. */
public final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        return new String[] {"slurmwise " + p.getProperty("version", "dev"),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
    }
}
