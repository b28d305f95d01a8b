package io.slurmwise.cli.stats;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Renders the HTML report in a real headless Chromium and checks the screenshot: the page loads offline and the
 * charts are drawn (their bar colours cover real areas). Runs in the integration profile ({@code -Pintegration},
 * tag "browser"), which .ci/run starts after installing Debian's {@code chromium}; without a browser it fails,
 * never skips. The screenshots are kept under target/ to look at.
 */
@Tag("browser")
class StatsHtmlBrowserTest {

    @TempDir
    Path tmp;

    static Path chromium() {
        String explicit = System.getenv("SLURMWISE_CHROMIUM");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : new String[] {"chromium", "chromium-browser", "google-chrome"}) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return fail("no Chromium on PATH: install it (apt-get install chromium) or set SLURMWISE_CHROMIUM; "
                + "the browser suite must not pass without a browser");
    }

    static BufferedImage screenshot(Path html, Path png, Path profile) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(chromium().toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile, "--window-size=1280,1600", "--screenshot=" + png,
                html.toUri().toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(profile.resolveSibling("chromium.log").toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("chromium did not finish within 120 s; see " + profile.resolveSibling("chromium.log"));
        }
        assertThat(Files.exists(png)).as("chromium wrote a screenshot (exit %s, log %s)", p.exitValue(),
                Files.readString(profile.resolveSibling("chromium.log"))).isTrue();
        return ImageIO.read(png.toFile());
    }

    static int pixelsNear(BufferedImage img, int rgb) {
        int n = 0;
        int r0 = (rgb >> 16) & 0xff;
        int g0 = (rgb >> 8) & 0xff;
        int b0 = rgb & 0xff;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int c = img.getRGB(x, y);
                if (Math.abs(((c >> 16) & 0xff) - r0) + Math.abs(((c >> 8) & 0xff) - g0) + Math.abs((c & 0xff) - b0) < 24) {
                    n++;
                }
            }
        }
        return n;
    }

    @Test
    void theReportRendersWithItsChartsInHeadlessChromium() throws Exception {
        Path seed = StatsRun.seedWindow(tmp.resolve("seed"));
        for (Map<String, String> env : List.of(Map.of("SLURMWISE_MOCK_DIR", seed.toString()), Map.<String, String>of())) {
            String name = env.isEmpty() ? "mock-cluster" : "seed-window";
            Path html = tmp.resolve(name + ".html");
            StatsRun.Result r = StatsRun.run(env, "stats", "--html", html.toString());
            assertThat(r.code()).as(r.err()).isZero();
            Path png = tmp.resolve(name + ".png");
            BufferedImage img = screenshot(html, png, Files.createDirectories(tmp.resolve("profile-" + name)));
            assertThat(img.getWidth()).isEqualTo(1280);
            // the bars of each chart: red (kinds, failure rate), orange (partitions), blue (energy by day)
            assertThat(pixelsNear(img, 0xc0392b)).as("%s: red bars", name).isGreaterThan(500);
            assertThat(pixelsNear(img, 0xd68910)).as("%s: orange bars", name).isGreaterThan(500);
            assertThat(pixelsNear(img, 0x2e86c1)).as("%s: blue bars", name).isGreaterThan(100);
            // the dark header band across the top means the stylesheet applied
            assertThat(pixelsNear(img.getSubimage(0, 0, 1280, 40), 0x1c2833)).isGreaterThan(1280 * 20);
            Path kept = Path.of("target", "stats-report-" + name + ".png");
            Files.createDirectories(kept.getParent());
            Files.copy(png, kept, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
