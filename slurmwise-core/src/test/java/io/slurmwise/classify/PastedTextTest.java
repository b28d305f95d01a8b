package io.slurmwise.classify;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Text as pasting, web pages and UTF-8 locales deliver it: no-break spaces, typographic quotes, HTML entities. */
class PastedTextTest {

    private static String plain(String s) {
        return new String(PastedText.plain(s.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    @Test
    void plainAsciiIsReturnedAsItIs() {
        byte[] ascii = "slurmstepd: error: Detected 1 oom_kill event in StepId=7.0.\n".getBytes(StandardCharsets.UTF_8);
        assertThat(PastedText.plain(ascii)).isSameAs(ascii);
        // other UTF-8 text is kept byte for byte (and not copied)
        byte[] accents = "Données introuvables: é à ü 日本\n".getBytes(StandardCharsets.UTF_8);
        assertThat(PastedText.plain(accents)).isSameAs(accents);
        // an ampersand that starts no entity stays
        assertThat(plain("make -j8 && ./run & wait")).isEqualTo("make -j8 && ./run & wait");
    }

    @Test
    void typographicSpacesQuotesAndInvisiblesBecomeAscii() {
        assertThat(plain("slurmstepd:\u00a0error:\u00a0Detected")).isEqualTo("slurmstepd: error: Detected");
        assertThat(plain("cat: cannot stat \u2018input.csv\u2019: No such file")).isEqualTo("cat: cannot stat 'input.csv': No such file");
        assertThat(plain("\u201cposre.itp\u201d not\u2009found\u3000x")).isEqualTo("\"posre.itp\" not found x");
        assertThat(plain("\ufeffKilled\u200b")).isEqualTo("Killed");
    }

    @Test
    void quotesAndSpacesThatAToolDecodedAsWindows1252OrLatin1BecomeAscii() {
        // UTF-8 quotes shown by a Windows-1252 tool: ‘ as "â€˜", ’ as "â€™",
        // “ as "â€œ", ” as "â€" and U+009D (a byte Windows-1252 leaves undefined)
        assertThat(plain("cannot stat â€˜input.csvâ€™: No such file"))
                .isEqualTo("cannot stat 'input.csv': No such file");
        assertThat(plain("â€œposre.itpâ€ not found")).isEqualTo("\"posre.itp\" not found");
        // ... by a Latin-1 one: U+0080 for Windows-1252's euro sign, and the third byte as its own C1 control
        assertThat(plain("cannot stat âxâ")).isEqualTo("cannot stat 'x'");
        // a no-break space as "Â" and a no-break space
        assertThat(plain("slurmstepd:Â error:Â Detected")).isEqualTo("slurmstepd: error: Detected");
        // French words with â are words, not a mis-decoded quote
        byte[] french = "Tâche âgée: â€".getBytes(StandardCharsets.UTF_8);
        assertThat(PastedText.plain(french)).isSameAs(french);
        assertThat(LineTextTest.kind("ls: cannot access â€˜/scratch/u/run42â€™: No such file or directory\n"))
                .isEqualTo("file_not_found");
    }

    @Test
    void htmlEntitiesAreDecodedOnce() {
        assertThat(plain("Assertion `n &gt; 0&#39; failed &amp;&amp; &quot;x&quot;&nbsp;y"))
                .isEqualTo("Assertion `n > 0' failed && \"x\" y");
        assertThat(plain("&amp;lt;")).isEqualTo("&lt;");
    }

    @Test
    void nulBytesAreDropped() {
        // a log that logrotate's copytruncate cut while the job kept its offset: NULs where the lost text was
        assertThat(plain("\0\0\0\0\0\0\0\0\0\0\0Killed: 9\n")).isEqualTo("Killed: 9\n");
        assertThat(plain("step 1\n\0\0\0slurmstepd: error: Detected 1 oom_kill event\n"))
                .isEqualTo("step 1\nslurmstepd: error: Detected 1 oom_kill event\n");
        // PowerShell's UTF-16LE: every ASCII byte followed by a NUL
        assertThat(plain("K\0i\0l\0l\0e\0d\0\n\0")).isEqualTo("Killed\n");
        assertThat(LineTextTest.kind("\0".repeat(4096) + "Killed\n")).isEqualTo("oom");
    }

    @Test
    void aCandidateIsFoundWhereverItStandsInTheEightByteWords() {
        String pad = "abcdefghijklmnopqrstuvwxyz0123456789";
        for (int at = 0; at <= 20; at++) {
            String head = pad.substring(0, at);
            assertThat(plain(head + "&gt;" + pad)).isEqualTo(head + ">" + pad);
            assertThat(plain(head + "\u00a0" + pad)).isEqualTo(head + " " + pad);
            assertThat(plain(pad + head + "\u2019")).isEqualTo(pad + head + "'");
            assertThat(plain(head + "\0" + pad)).isEqualTo(head + pad);
        }
    }

    @Test
    void lineBreaksAreNeverAddedOrRemoved() {
        String log = "a\u00a0b\n\u2018c\u2019\r\n&quot;\n\ufeff\n";
        assertThat(plain(log).split("\n", -1)).hasSize(log.split("\n", -1).length);
    }

    @Test
    void messagesReadTheSameWhateverTheTypography() {
        // coreutils in a UTF-8 locale quotes with U+2018/U+2019 where the signature was written for the C locale's '
        assertThat(LineTextTest.kind("ls: cannot access \u2018/scratch/u/run42\u2019: No such file or directory\n")).isEqualTo("file_not_found");
        // copied from a web page: no-break spaces between every word
        assertThat(LineTextTest.kind("slurmstepd:\u00a0error:\u00a0Detected\u00a01\u00a0oom_kill\u00a0event\u00a0in\u00a0StepId=7.0.\n"))
                .isEqualTo("oom");
        // an HTML page's or an XML test report's escaping
        assertThat(LineTextTest.kind("./a.out: /lib64/libc.so.6: version `GLIBC_2.28&#39; not found (required by ./a.out)\n"))
                .isEqualTo("missing_shared_library");
    }

    @Test
    void translatedMessagesAreLeftAsTheyAre() {
        // what glibc's and bash's translations print (their po files): nothing in them is typography to undo
        for (String m : new String[] {"Speicherzugriffsfehler (Speicherabzug geschrieben)", "段错误 （核心已转储）",
                "Ошибка сегментирования", "Błąd szyny", "Parçalama arızası", "Violación de segmento",
                "세그멘테이션 오류", "共有オブジェクトファイルを開けません", "無法配置記憶體"}) {
            byte[] b = m.getBytes(StandardCharsets.UTF_8);
            assertThat(PastedText.plain(b)).as(m).isSameAs(b);
        }
        // only the typographic apostrophe of Ukrainian "пам’ять" becomes ASCII, like any other
        assertThat(plain("Не вдалося розподілити пам\u2019ять")).isEqualTo("Не вдалося розподілити пам'ять");
    }
}
