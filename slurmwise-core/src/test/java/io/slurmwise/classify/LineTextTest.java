package io.slurmwise.classify;

import com.google.re2j.Pattern;
import io.slurmwise.job.JobState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Text as it really arrives: coloured, overwritten by progress bars, prefixed, lowercased. */
class LineTextTest {

    static String kind(String log) {
        return ClassifierTest.CLASSIFIER.classifyText(JobFacts.NONE.withState(JobState.FAILED), log).kindId();
    }

    @Test
    void colourEscapesAreInvisibleEvenInsideAMessage() {
        assertThat(LineText.stripAnsi("\u001b[1;31mRuntimeError:\u001b[0m CUDA out of memory")).isEqualTo("RuntimeError: CUDA out of memory");
        // the escape splits the literal the prefilter looks for: the automaton must read through it
        assertThat(kind("\u001b[31mslurmstepd: error: Detected 1 oom_kill \u001b[1mevent\u001b[0m in StepId=7.0.\n")).isEqualTo("oom");
        assertThat(kind("torch.OutOfMemoryError: CUDA out \u001b[33mof\u001b[0m memory. Tried to allocate 2.00 GiB\n")).isEqualTo("cuda_oom");
    }

    @Test
    void linesCarriedWithEscapedLineBreaksAreReadAsTheLinesTheyWere() {
        // dask-jobqueue's RuntimeError quotes sbatch's stderr as a Python repr: one log line, literal backslash-n
        String repr = "RuntimeError('Command exited with non-zero exit code.\\nExit code: 1\\nstderr:\\n"
                + "sbatch: error: lua: Requesting memory by node is not supported. Use --mem-per-cpu.\\n"
                + "sbatch: error: cli_filter plugin terminated with error\\n\\n')";
        assertThat(LineText.segments(repr)).contains("sbatch: error: cli_filter plugin terminated with error", "')");
        assertThat(kind(repr + "\n")).isEqualTo("resources_unavailable");
        // a JSON log record's \\r\\n, and an anchored signature sees the carried line's start
        assertThat(LineText.segments("{\"msg\": \"step 12\\r\\nKilled\"}")).containsExactly("step 12", "Killed");
        assertThat(kind("{\"log\": \"epoch 3\\nslurmstepd: error: Detected 1 oom-kill event(s) in StepId=7.0.\"}\n"))
                .isEqualTo("oom");
        // a JSON record's string: the record's syntax is no part of the carried lines, and the string's escapes are undone
        assertThat(LineText.segments("{\"job\": 7, \"log\": \"epoch 3\\n\\t/usr/bin/env: \\\"bash\\\": No such file\\nKilled\", \"rc\": 137}"))
                .containsExactly("epoch 3", "\t/usr/bin/env: \"bash\": No such file", "Killed");
        assertThat(LineText.segments("[\"C:\\\\data\\\\x: \\\"q\\\"\\nKilled: 9\"]")).containsExactly("C:\\data\\x: \"q\"", "Killed: 9");
        // Docker's json-file log: the prefilter reads a quoted literal through the string's backslashes (detect "srun")
        assertThat(kind("{\"log\":\"RuntimeError: Could not detect \\\"srun\\\", are you indeed on a slurm cluster?\\n\","
                + "\"stream\":\"stderr\",\"time\":\"2024-03-01T10:00:00Z\"}\n")).isEqualTo("file_not_found");
        assertThat(kind("RuntimeError: Could not detect \"srun\", are you indeed on a slurm cluster?\n")).isEqualTo("file_not_found");
        // a log prefix in brackets is no JSON array: its quotes are the carried line's own
        assertThat(LineText.isJsonRecord("[E::bgzf_flush] x")).isFalse();
        assertThat(LineText.isJsonRecord("[rank0]: {\"a\": 1}")).isFalse();
        assertThat(LineText.isJsonRecord("  [ {\"a\": 1}]")).isTrue();
        assertThat(LineText.segments("[E::bgzf_flush] File write failed\\nsamtools sort: failed writing to \"/tmp/x.bam\": No space left on device"))
                .containsExactly("[E::bgzf_flush] File write failed", "samtools sort: failed writing to \"/tmp/x.bam\": No space left on device");
        // a Python repr's quotes: the carried line's own quote, unescaped; the repr's end stays a text of its own
        assertThat(LineText.segments("RuntimeError('x\\ncp: cannot stat \\'a b\\': No such file\\n')"))
                .containsExactly("RuntimeError('x", "cp: cannot stat 'a b': No such file", "')");
        assertThat(kind("{\"stream\": \"stderr\", \"log\": \"loading\\nKilled\"}\n")).isEqualTo("oom");
        // a line without escaped breaks stays whole
        assertThat(LineText.segments("C:/data/new run")).containsExactly("C:/data/new run");
    }

    @Test
    void aProgressBarThatCarriageReturnsOverwroteIsGone() {
        String bar = " 12%|#         | 120/1000 [00:10<01:12, 12.1it/s]\r 13%|#         | 130/1000 [00:11<01:12, 12.1it/s]\r";
        assertThat(LineText.segments(bar + "Killed")).endsWith("Killed");
        // the bare Killed that ends a log is only seen as the last line when the bar before it is dropped
        assertThat(kind("loading data\n" + bar + "Killed\n")).isEqualTo("oom");
        assertThat(kind("epoch 1\n" + bar + "/bin/cat: input.csv: No such file or directory\n")).isEqualTo("file_not_found");
    }

    @Test
    void launcherAndLoggerPrefixesAreNoObstacleToAnchoredSignatures() {
        Pattern killed = Pattern.compile("^\\s*Killed\\s*$");
        for (String line : new String[] {"[rank3]: Killed", "2024-05-01T10:00:00.123+02:00 Killed", "CRASH: Killed",
                "srun: error: node12: Killed", "Tue May  1 10:00:00 2024 Killed", "[2024-05-01 10:00:00] [rank0]: Killed",
                "0: Killed", "  12: Killed", "P1 3: Killed", "ERROR:root:Killed", "INFO:__main__: Killed",
                "E0501 10:00:00.123456  4242 main.cc:12] Killed", "(pid=4242) Killed", "(TrainWorker pid=4242, ip=10.0.0.5) Killed"}) {
            assertThat(LineText.find(killed, line, true)).as(line).isTrue();
        }
        assertThat(LineText.find(killed, "the job was Killed", true)).isFalse();
        assertThat(kind("srun: error: node12: /bin/cat: input.csv: No such file or directory\n")).isEqualTo("file_not_found");
        assertThat(kind("[rank3]: Killed\n")).isEqualTo("oom");
        // srun --label output: each task's lines start with its number
        assertThat(kind("3: cp: input.csv: No such file or directory\n")).isEqualTo("file_not_found");
        assertThat(kind(" 0: Killed\n")).isEqualTo("oom");
    }

    @Test
    void slurmsOwnTextIsMatchedWhateverItsCase() {
        assertThat(kind("slurmstepd: error: *** job 4242 on node12 cancelled at 2024-05-01t10:00:00 due to time limit ***\n")).isEqualTo("time_limit");
        assertThat(kind("sbatch: error: batch job submission failed: requested node configuration is not available\n"))
                .isEqualTo("resources_unavailable");
        assertThat(kind("SRUN: ERROR: NODE FAILURE ON NODE12\n")).isEqualTo("node_fail");
    }

    @Test
    void dashsNotFoundIsReadInAnyCase() {
        // dash's fixed "not found" (src/exec.c), after a tool upper- or lowercased the whole log
        assertThat(kind("/bin/sh: 1: srun: not found\n")).isEqualTo("file_not_found");
        assertThat(kind("/BIN/SH: 1: SRUN: NOT FOUND\n")).isEqualTo("file_not_found");
        assertThat(kind("/.SINGULARITY.D/ACTIONS/EXEC: 9: EXEC: --NV: NOT FOUND\n")).isEqualTo("file_not_found");
    }

    @Test
    void aMessageThatATerminalWrappedIsReadWhole() {
        String msg = "slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME LIMIT ***";
        for (int width : new int[] {72, 80}) {
            String wrapped = msg.substring(0, width) + "\n" + msg.substring(width) + "\n";
            assertThat(msg.substring(0, width)).doesNotContain("DUE TO TIME LIMIT");
            assertThat(kind("step 100 loss 2.1\n" + wrapped)).as("wrapped at %d", width).isEqualTo("time_limit");
            assertThat(kind("step 100 loss 2.1\r\n" + wrapped.replace("\n", "\r\n"))).as("CRLF, %d", width).isEqualTo("time_limit");
        }
        // the literal itself cut in two: "kill event" spans the break
        String oom = "slurmstepd: error: Detected 1 oom_kill event in StepId=4242.batch. Some of the step tasks have been OOM Killed.";
        int cut = oom.indexOf("kill event") + 4;
        String prefix = ("[2024-05-01T10:00:00] " + "x".repeat(80)).substring(0, 80 - cut - 1) + " ";
        String line = prefix + oom;
        assertThat(line.substring(0, 80)).endsWith("kill").doesNotContain("Some of the");
        assertThat(kind(line.substring(0, 80) + "\n" + line.substring(80) + "\n")).isEqualTo("oom");
        // a line that happens to be 80 wide before a line that matches alone: each keeps its own evidence
        String step = "slurmstepd: error: *** STEP 1048.0 ON cn097 CANCELLED AT 2026-11-24T22:01:50 ***";
        String job = "slurmstepd: error: *** JOB 1048 ON cn097 CANCELLED AT 2026-11-24T22:01:50 ***";
        assertThat(step).hasSize(80);
        Finding f = ClassifierTest.CLASSIFIER.classifyText(JobFacts.NONE, step + "\n" + job + "\n");
        assertThat(f.evidence()).extracting(Evidence::text).containsExactly(step, job);
        // a word wrapper breaks at a space and drops it: the message is read with the space back
        String byWord = "slurmstepd: error: *** JOB 424 ON node12 CANCELLED AT 2024-05-01T10:00:00 DUE TO\nTIME LIMIT ***\n";
        assertThat(byWord.indexOf('\n')).isEqualTo(80);
        assertThat(kind("step 100 loss 2.1\n" + byWord)).isEqualTo("time_limit");
        String errno = "job 42: problem with execution of ./a.out on node12.cluster.example.org: [Errno\n2] No such file or directory\n";
        assertThat(errno.indexOf('\n')).isEqualTo(79);
        assertThat(kind(errno)).isEqualTo("file_not_found");
        // a line that is not at a wrap width is a line of its own: nothing joins it to the next
        assertThat(kind("slurmstepd: error: Detected 1 oom_\nkill event in StepId=4242.batch\n")).isEqualTo("unknown");
    }

    @Test
    void aTerminalCutAtASpaceOrAtItsOwnWidthIsReadWhole() {
        // a hard wrap at 80 columns whose cut falls just before a space: the rest starts with that space
        String account = "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified";
        int cut = account.indexOf(" combination");
        String padded = "x".repeat(80 - cut) + account;
        assertThat(padded.charAt(80)).isEqualTo(' ');
        assertThat(kind(padded.substring(0, 80) + "\n" + padded.substring(80) + "\n")).isEqualTo("allocation_exhausted");
        // a 97-column terminal, which no table of usual widths has: its width is read from the lines it cut
        String time = "slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME LIMIT ***";
        String log = ("[2024-05-01 10:00:00] epoch 1 " + "loss 2.1 ".repeat(20)).substring(0, 97) + "\n"
                + "tail of the epoch line\n" + ("step 9 of 9 " + "x".repeat(120)).substring(0, 97) + "\n" + "rest\n"
                + ("[2024-05-01 10:00:05] " + time).substring(0, 97) + "\n" + ("[2024-05-01 10:00:05] " + time).substring(97) + "\n";
        assertThat(SignatureScanner.terminalWidth(log.getBytes(), log.length())).isEqualTo(97);
        assertThat(kind(log)).isEqualTo("time_limit");
        // two copies of one line are not a width; lines narrower than a terminal are a table
        String twice = "y".repeat(97) + "\n" + "y".repeat(97) + "\nend\n";
        assertThat(SignatureScanner.terminalWidth(twice.getBytes(), twice.length())).isZero();
        String table = "a".repeat(40) + "\n" + "b".repeat(40) + "\nend\n";
        assertThat(SignatureScanner.terminalWidth(table.getBytes(), table.length())).isZero();
    }

    @Test
    void aMessageThatAWordWrapperBrokeIsReadWhole() {
        // a mail client's (or textwrap's) 72 columns: each line as full as the next word allowed, the space dropped
        String mail = """
                Hi all, my job fails right away when I submit it to the gpu partition
                with this message from sbatch, and I am not sure what it means or what
                to do: sbatch: error: Batch job submission failed: Invalid account or
                account/partition combination specified
                """;
        assertThat(SignatureScanner.wordWrapWidth(mail.getBytes(), mail.length())).isEqualTo(70);
        assertThat(kind(mail)).isEqualTo("allocation_exhausted");
        // a literal that ends on the space the wrapper took away ("CANCELLED AT ") is read across the break
        String cancel = "slurmstepd-midway2-0086: error: *** JOB 7709225 ON midway2-0086 CANCELLED AT\n2020-12-14T15:53:58 ***\n";
        assertThat(cancel.indexOf('\n')).isEqualTo(76);
        assertThat(kind("Begin CPU0000_JOBLIST\n" + cancel)).isEqualTo("cancelled");
        // a log of short records shows no wrapper's width, nor one whose longest lines are followed by an indent
        String records = "step 1 loss 2.1\nstep 2 loss 2.0\nslurmstepd: error: Detected 1 oom_\nkill event\n";
        assertThat(SignatureScanner.wordWrapWidth(records.getBytes(), records.length())).isZero();
        assertThat(kind(records)).isEqualTo("unknown");
        String frames = "Traceback (most recent call last): raised while the trainer loaded its checkpoint\n"
                + "  File \"train.py\", line 12, in <module>\nValueError: bad shape in the checkpoint that was loaded\n"
                + "    at the end\n";
        assertThat(SignatureScanner.wordWrapWidth(frames.getBytes(), frames.length())).isZero();
    }

    @Test
    void aTerminalCountsColumnsNotBytes() {
        // coreutils in a UTF-8 locale quotes with ‘’ (3 bytes, 1 column each): cut at 80 columns, the line is 84 bytes
        String line = "ls: cannot access ‘" + "d".repeat(53) + "’: No such file or directory";
        String cut = line.substring(0, 80);
        assertThat(cut).endsWith("No su");
        assertThat(cut.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(84);
        assertThat(kind("starting the copy\n" + cut + "\n" + line.substring(80) + "\n")).isEqualTo("file_not_found");
        // East Asian wide characters take two columns, combining marks none
        byte[] wide = "段错误 (核心已转储) é".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(SignatureScanner.columns(wide, 0, wide.length)).isEqualTo(3 * 2 + 2 + 5 * 2 + 3); // 8 wide, 5 narrow
        byte[] combining = "e\u0301".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(SignatureScanner.columns(combining, 0, combining.length)).isEqualTo(1);
    }

    @Test
    void aLineThatStartsLikeTheOneBeforeIsTheLoggersNextRecordNotItsRest() {
        // a 120-wide NCCL INFO record, then the next record of the same rank: the error is not the INFO line's rest,
        // so NCCL INFO (benign for nccl) does not hide it
        String info = ("[rank6]: n124:312249:326968 [2] NCCL INFO comm 0x12464df00 rank 6 nranks 8 cudaDev 2 " + "x".repeat(80))
                .substring(0, 120);
        String log = info + "\n[rank6]: [E624 04:14:29.224103812 ProcessGroupNCCL.cpp:684] [Rank 6] Some NCCL operations "
                + "have failed or timed out.\n";
        assertThat(kind(log)).isEqualTo("nccl");
    }

    @Test
    void benignWordsThatATerminalCutOntoTheLineBeforeStillMakeTheMessageBenign() {
        String warning = "libibverbs: Warning: couldn't load driver 'librxe-rdmav25.so': librxe-rdmav25.so: cannot open shared "
                + "object file: No such file or directory";
        assertThat(kind(warning + "\n")).isEqualTo("unknown");
        // the terminal cut two lines at 80: its width is in the text, and the warning's rest is read with its start
        String other = "[2024-05-01 10:00:00] loading the training set from /scratch/u/data/shards, 64 shards of 2 GB each";
        String log = other.substring(0, 80) + "\n" + other.substring(80) + "\n" + warning.substring(0, 80) + "\n"
                + warning.substring(80) + "\n";
        assertThat(SignatureScanner.terminalWidth(log.getBytes(), log.length())).isEqualTo(80);
        assertThat(kind(log)).isEqualTo("unknown");
        // one benign line that happens to be 80 wide, then an error of its own: the error is not the line's rest
        String info = ("gpua017:1234:1240 [0] NCCL INFO Channel 00/24 : 0 1 2 3 4 5 6 7 " + "8 ".repeat(20)).substring(0, 80);
        assertThat(kind(info + "\nRuntimeError: CUDA error: an illegal memory access was encountered\n")).isEqualTo("cuda_error");
    }

    @Test
    void anIgnoredMessageIsReadBehindAPrefixAsASignatureIs() {
        // dash's "not found" for a bash builtin is the script's shell, not a missing file (file_not_found's ignore list)
        assertThat(kind("run.sh: 18: source: not found\n")).isEqualTo("unknown");
        assertThat(kind("[rank3]: run.sh: 18: source: not found\n")).isEqualTo("unknown");
        assertThat(kind("[rank3]: run.sh: 18: fastqc: not found\n")).isEqualTo("file_not_found");
    }

    @Test
    void fixedTextsOfLibrariesAndSlurmReadTheSameLowercased() {
        assertThat(kind("environment: line 17: /usr/share/lmod/lmod/libexec/lmod: no such file or directory\n")).isEqualTo("module_load");
        assertThat(kind("slurmstepd: error: execve(): /tmp/slurmd/job00089/slurm_script: no such file or directory\n"))
                .isEqualTo("node_fail");
        assertThat(kind("libibverbs: warning: couldn't load driver 'librxe-rdmav25.so': librxe-rdmav25.so: cannot open shared "
                + "object file: no such file or directory\n")).isEqualTo("unknown");
        assertThat(kind("[ 1234.5] out of memory: killed process 4242 (python)\n")).isEqualTo("oom");
    }

    @Test
    void slurmIdentifiersReadLowercasedWhereTheyCannotBeProse() {
        // CamelCase reasons and underscore states are no word of prose: squeue, scontrol and sacct output a tool lowercased
        assertThat(kind("  1234     small     test username pd       0:00      1 (partitiontimelimit)\n"))
                .isEqualTo("resources_unavailable");
        assertThat(kind("  5007897     srlab 20231206 graceac9 pd       0:00      1 (reqnodenotavail, reserved for maintenance)\n"))
                .isEqualTo("resources_unavailable");
        assertThat(kind("   jobstate=pending reason=dependencyneversatisfied dependency=afterok:863087(failed)\n"))
                .isEqualTo("dependency");
        assertThat(kind("[jobid].0    python3.12               default          1 out_of_me+    0:125\n")).isEqualTo("oom");
        assertThat(kind("   jobstate=node_fail reason=nodedown dependency=(null)\n")).isEqualTo("node_fail");
        // a state word stays SLURM's where a field names it, and prose where nothing does
        assertThat(kind("state: cancelled (exit code 0)\n")).isEqualTo("cancelled");
        assertThat(kind("   jobstate=timeout reason=timelimit dependency=(null)\n")).isEqualTo("time_limit");
        assertThat(kind("the request was cancelled, retrying in 5 s\n")).isEqualTo("unknown");
    }

    @Test
    void loggingFormatsSyslogAndIndentsAreNoObstacleToAnchoredSignatures() {
        assertThat(kind("2024-03-01 10:00:00,123 - root - ERROR - Killed\n")).isEqualTo("oom");
        assertThat(kind("2024-03-01 10:00:00.123 | ERROR    | train:main:42 - Killed\n")).isEqualTo("oom");
        assertThat(kind("Mar  1 10:00:00 node12 job[4242]: run.sh: 3: fastqc: not found\n")).isEqualTo("file_not_found");
        assertThat(kind("    run.sh: 3: fastqc: not found\n")).isEqualTo("file_not_found");
        assertThat(kind("2024-03-01T10:00:00+0000 node12 job[4242]: Killed\n")).isEqualTo("oom");
        assertThat(kind("2024-03-01T10:00:00.123456789Z stderr F Killed\n")).isEqualTo("oom");
        assertThat(kind("2024/03/01 10:00:00 Killed\n")).isEqualTo("oom");
        assertThat(kind("[1,3]<stderr>:Killed\n")).isEqualTo("oom");
        assertThat(kind("E       Killed\n")).isEqualTo("oom");
    }

    @Test
    void anchorsAreFoundOutsideCharacterClassesOnly() {
        assertThat(LineText.anchored("^\\s*Killed")).isTrue();
        assertThat(LineText.anchored("(^|[\\r\\]])\\s*Killed")).isTrue();
        assertThat(LineText.anchored("[^:]+: No such file")).isFalse();
        assertThat(LineText.anchored("a\\^b")).isFalse();
    }

    @Test
    void markdownQuotesInlineCodeAndLineNumbersAreNoObstacleToAnchoredSignatures() {
        assertThat(kind("epoch 3\n> Killed\n")).isEqualTo("oom");
        assertThat(kind("epoch 3\n`Killed`\n")).isEqualTo("oom");
        assertThat(kind("> > train.sh: 1: srun: not found\n")).isEqualTo("file_not_found");
        assertThat(kind("    41\tepoch 3\n    42\tKilled\n")).isEqualTo("oom");
        assertThat(kind(" 41 | epoch 3\n 42 | Killed\n")).isEqualTo("oom");
    }

    @Test
    void aLogPastedWithoutACodeFenceAndReadBackFromTheRenderedPageReadsTheSame() {
        // GitHub's Markdown took __init__'s underscores for emphasis and <module> for a tag
        assertThat(kind("Traceback (most recent call last):\n  File \"train.py\", line 3, in\n    import torch\n"
                + "  File \"/opt/conda/lib/python3.10/site-packages/torch/init.py\", line 191, in\n    _load_global_deps()\n"
                + "OSError: libcudart.so.12: cannot open shared object file: No such file or directory\n"))
                .isEqualTo("missing_shared_library");
        // SLURM's *** with a space inside is no emphasis: it stays, and without it the line still reads
        assertThat(kind("slurmstepd: error: *** JOB 12 ON n1 CANCELLED AT 2024-01-01T00:00:00 ***\n")).isEqualTo("cancelled");
        assertThat(kind("slurmstepd: error: JOB 12 ON n1 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT\n"))
                .isEqualTo("time_limit");
    }
}
