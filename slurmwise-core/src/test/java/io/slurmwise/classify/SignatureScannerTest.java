package io.slurmwise.classify;

import com.google.re2j.Pattern;
import io.slurmwise.taxonomy.Signature;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SignatureScannerTest {

    private static Signature sig(String kind, String pattern) {
        return new Signature(kind, pattern, Pattern.compile(pattern), 0.9, null);
    }

    private static List<String> scan(SignatureScanner s, byte[] text) {
        List<String> hits = new ArrayList<>();
        s.scan(text, (sig, line, l, message) -> hits.add(sig.kindId() + "@" + line));
        return hits;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void reportsEachSignatureOncePerLineWithLineIndexes() {
        SignatureScanner s = new SignatureScanner(List.of(sig("oom", "Detected \\d+ oom-kill event"),
                sig("cuda_oom", "CUDA out of memory"), sig("killed", "^Killed$")));
        byte[] log = bytes("start\nslurmstepd: error: Detected 1 oom-kill event(s) oom-kill event\n"
                + "torch.OutOfMemoryError: CUDA out of memory. CUDA OUT OF MEMORY\nKilled\nnot Killed here\n");
        assertThat(scan(s, log)).containsExactlyInAnyOrder("oom@1", "cuda_oom@2", "killed@3");
    }

    @Test
    void aSlurmCommandRunUnderARenamedBinaryReadsAsTheCommandAndIsQuotedAsWritten() {
        // sbatch, srun and salloc print argv[0]'s base name (log_init(xbasename(argv[0]))): a site wrapper that
        // runs the real binary as sbatch.bin makes every message say so
        SignatureScanner s = new SignatureScanner(List.of(sig("part", "(?i)^\\s*(sbatch|salloc): error: invalid partition"),
                sig("count", "(?i)\\b(sbatch|salloc|srun): error: invalid node count `"),
                sig("opt", "(?i)\\b(sbatch|salloc|srun): (unrecognized|invalid) option\\b")));
        byte[] log = bytes("sbatch lra.tmpl\nsbatch.bin: error: invalid partition specified: gpu\n"
                + "qsub produced exit code 1; output sbatch.exe: error: invalid node count `1:ppn=1'\n"
                + "srun.orig: unrecognized option '--foo'\nSBATCH.REAL: ERROR: INVALID PARTITION SPECIFIED: GPU\n"
                + "\u001b[1;31msbatch.bin: error: invalid partition specified: a\u001b[0m\n");
        byte[] before = log.clone();
        List<String> lines = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        List<String> hits = new ArrayList<>();
        s.scan(log, (sig, line, l, message) -> {
            hits.add(sig.kindId() + "@" + line);
            lines.add(l);
            messages.add(message);
        });
        assertThat(hits).containsExactly("part@1", "count@2", "opt@3", "part@4", "part@5");
        assertThat(lines).containsExactly("sbatch.bin: error: invalid partition specified: gpu",
                "qsub produced exit code 1; output sbatch.exe: error: invalid node count `1:ppn=1'",
                "srun.orig: unrecognized option '--foo'", "SBATCH.REAL: ERROR: INVALID PARTITION SPECIFIED: GPU",
                "\u001b[1;31msbatch.bin: error: invalid partition specified: a\u001b[0m");
        assertThat(messages.get(0)).isEqualTo("    sbatch: error: invalid partition specified: gpu");
        assertThat(log).as("the caller's bytes are not changed").isEqualTo(before);
    }

    @Test
    void aScriptOrFileNamedLikeACommandIsNoRenamedCommand() {
        // argparse prints "srun.py: error: ...", bash "sbatch.sh: line 3: ...": programs and files of their own
        SignatureScanner s = new SignatureScanner(List.of(sig("err", "(?i)\\b(sbatch|salloc|srun): error: "),
                sig("opt", "(?i)\\b(sbatch|salloc|srun): (unrecognized|invalid) option\\b")));
        byte[] log = bytes("srun.py: error: unrecognized arguments: --mem\nsbatch.sh: line 3: invalid option\n"
                + "qdo-srun.bin: error: x\n/opt/slurm/bin/srun.real: error: y\nmy_sbatch.bin: error: z\n"
                + "sbatch.real:error: no space\nsbatch.real\n");
        assertThat(scan(s, log)).isEmpty();
    }

    @Test
    void prefilterIgnoresCaseButTheRegexDecides() {
        SignatureScanner s = new SignatureScanner(List.of(sig("a", "Disk quota exceeded"), sig("b", "(?i)no space left")));
        assertThat(scan(s, bytes("DISK QUOTA EXCEEDED\nNo Space Left on device\n"))).containsExactly("b@1");
    }

    @Test
    void signaturesWithoutLiteralsAreTestedOnEveryLine() {
        SignatureScanner s = new SignatureScanner(List.of(sig("exit", "^\\d+$")));
        assertThat(s.unfiltered()).hasSize(1);
        assertThat(scan(s, bytes("abc\n137\nx\n"))).containsExactly("exit@1");
    }

    @Test
    void literalsPastTheTablesStatesAreTestedOnEveryLineAndStillFound() {
        // 3,000 literals of 40 distinct letters each need 120,000 states, more than a char numbers: the first fill the
        // table, the rest are tested on every line, and every one is found where it is, and nowhere else
        List<Signature> sigs = new ArrayList<>();
        java.util.Random r = new java.util.Random(42);
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            StringBuilder w = new StringBuilder();
            for (int k = 0; k < 40; k++) {
                w.append((char) ('a' + r.nextInt(26)));
            }
            words.add(w.toString());
            sigs.add(sig("k" + i, "(?i)\\b" + w + "\\b"));
        }
        SignatureScanner s = new SignatureScanner(sigs);
        assertThat(s.unfiltered()).isNotEmpty().hasSizeLessThan(3000);
        int first = 0;
        int last = 2999;
        assertThat(s.unfiltered()).extracting(Signature::kindId).doesNotContain("k" + first).contains("k" + last);
        byte[] log = bytes("start\n" + words.get(first).toUpperCase() + " here\nmiddle\nthen " + words.get(last) + "\n");
        assertThat(scan(s, log)).containsExactly("k" + first + "@1", "k" + last + "@3");
    }

    @Test
    void survivesBinaryBytesInvalidUtf8AndCrlf() {
        SignatureScanner s = new SignatureScanner(List.of(sig("seg", "Segmentation fault")));
        byte[] junk = new byte[4096];
        for (int i = 0; i < junk.length; i++) {
            junk[i] = (byte) (i * 31);
        }
        byte[] tail = bytes("\r\n\u00ff\u00fe Segmentation fault (core dumped)\r\n");
        byte[] log = Arrays.copyOf(junk, junk.length + tail.length + 2);
        log[junk.length] = (byte) 0xC3; // truncated UTF-8 sequence
        log[junk.length + 1] = (byte) 0x28;
        System.arraycopy(tail, 0, log, junk.length + 2, tail.length);
        List<String> lines = new ArrayList<>();
        s.scan(log, (sig, line, l, message) -> lines.add(l));
        assertThat(lines).singleElement().asString().contains("Segmentation fault").doesNotEndWith("\r");
    }

    @Test
    void aTenMegabyteSingleLineFullOfNearMissesStaysLinear() {
        // every 30 bytes a literal hit whose regex fails: windows never overlap more than twice
        SignatureScanner s = new SignatureScanner(List.of(sig("oom", "oom-kill event\\(s\\) in StepId=\\d+")));
        StringBuilder sb = new StringBuilder(10 << 20);
        while (sb.length() < (10 << 20)) {
            sb.append("oom-kill event(s) in StepId=x;");
        }
        sb.append("oom-kill event(s) in StepId=5");
        byte[] log = bytes(sb.toString());
        long start = System.nanoTime();
        List<String> hits = scan(s, log);
        long ms = (System.nanoTime() - start) / 1_000_000;
        // the real match at the very end of the line is still found, once
        assertThat(hits).containsExactly("oom@0");
        assertThat(ms).as("sanity bound only; speed is measured by the JMH benchmark").isLessThan(30_000);
    }

    @Test
    void matchesOnLongLinesAreFoundInTheWindowAroundTheLiteral() {
        SignatureScanner s = new SignatureScanner(List.of(sig("cuda_oom", "CUDA out of memory\\. Tried")));
        String line = "x".repeat(100_000) + " CUDA out of memory. Tried to allocate" + "y".repeat(100_000);
        assertThat(scan(s, bytes(line + "\n"))).containsExactly("cuda_oom@0");
    }

    @Test
    void manyLiteralsShareOnePass() {
        List<Signature> sigs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            sigs.add(sig("k" + i, "marker number " + i + " reached"));
        }
        SignatureScanner s = new SignatureScanner(sigs);
        assertThat(scan(s, bytes("noise\nmarker number 17 reached\nmarker number 170 reached\n")))
                .containsExactlyInAnyOrder("k17@1", "k170@2");
    }

    @Test
    void translatedLiteralsPrefilterAsPrintedAndLowercased() {
        SignatureScanner s = new SignatureScanner(List.of(sig("seg", "(?i)Speicherzugriffsfehler|段错误|Ошибка сегментирования"),
                sig("ill", "(?i)Ungültiger Maschinenbefehl")));
        assertThat(s.unfiltered()).isEmpty();
        assertThat(scan(s, bytes("a\nZeile 12: 23456 Speicherzugriffsfehler\n段错误 （核心已转储）\nОшибка сегментирования\n"
                + "ошибка сегментирования\nungültiger maschinenbefehl\nUngültiger Maschinenbefehl\n")))
                .containsExactly("seg@1", "seg@2", "seg@3", "seg@4", "ill@5", "ill@6");
    }

    @Test
    void translatedLiteralsAreReadByteForByte() {
        List<Signature> sigs = List.of(sig("seg", "(?i)Segmentation fault|段错误|程式記憶體區段錯誤|Ошибка сегментирования"),
                sig("bus", "(?i)总线错误|匯流排錯誤|バスエラー|버스 오류|Ошибка шины"), sig("oom", "Out Of Memory"));
        SignatureScanner s = new SignatureScanner(sigs);
        // each UTF-8 byte a literal has is a letter of the automaton's alphabet of its own: a progress bar's blocks or
        // another script's text never stand in for a translation (bytes no literal has are one class, which no literal
        // continues through)
        assertThat(scan(s, bytes("x\n第 12 行：23456 段错误\nbus: バスエラー\nОшибка шины\nsegmentation fault\n"
                + "Segmentation Fault\n分段\nOut Of Memory\n 42%|████▏     | 4200/10000 [12:03<16:40]\n段落错字\n")))
                .containsExactly("seg@1", "bus@2", "bus@3", "seg@4", "seg@5", "oom@7");
    }
}
