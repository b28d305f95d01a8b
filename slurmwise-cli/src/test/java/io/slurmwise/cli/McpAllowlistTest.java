package io.slurmwise.cli;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code slurmwise mcp} on the real backend, driven by the MCP SDK's client with hostile arguments to every tool, in
 * front of a recording fake of every SLURM command: only the read-only forms ran (the allowlist of
 * scripts/ci/allowlist-shims.sh), none of them twice as a different program, and nothing a client sent reached a
 * command as an option of its own.
 */
class McpAllowlistTest {

    /** Every client program and daemon SLURM installs: whatever the server could ever start. */
    static final List<String> SLURM = List.of("sacct", "sacctmgr", "salloc", "sattach", "sbatch", "sbcast", "scancel",
            "scontrol", "scrontab", "scrun", "sdiag", "seff", "sgather", "sh5util", "sinfo", "sjobexitmod", "sjstat",
            "smail", "smap", "sprio", "squeue", "sreport", "srun", "sshare", "sstat", "strigger", "sview", "slurmctld",
            "slurmd", "slurmdbd", "slurmrestd", "slurmstepd", "sackd");

    @TempDir
    Path dir;

    @Test
    void hostileArgumentsToEveryToolRunOnlyReadOnlySlurmQueries() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path log = dir.resolve("calls.log");
        Path rows = Files.writeString(dir.resolve("sacct.psv"), SacctFaultsCliTest.HEADER + "\n" + SacctFaultsCliTest.ROW
                + "\n");
        for (String t : SLURM) {
            String answer = switch (t) {
                case "sacct" -> "if [ \"$1\" = --version ]; then echo 'slurm-wlm 22.05.8'; exit 0; fi\n/bin/cat '" + rows + "'";
                case "sinfo" -> "echo 'PARTITION|TIMELIMIT|NODES|CPUS|MEMORY|GRES|AVAIL'; echo 'cpu*|2:00:00|1|2|4000|(null)|up'";
                case "squeue", "sacctmgr", "sshare" -> "exit 0";
                case "scontrol" -> "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1";
                default -> "echo '" + t + " must never run' >&2; exit 1";
            };
            Path p = bin.resolve(t);
            // one line per call: the program and each argument, NUL-free and tab-separated
            Files.writeString(p, "#!/bin/bash\n{ printf '%s' '" + t + "'; for a in \"$@\"; do printf '\\t%s' \"$a\"; done;"
                    + " printf '\\n'; } >> '" + log + "'\n" + answer + "\n");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Map<String, String> env = Map.of("SLURMWISE_BACKEND", "real", "PATH", bin.toString(), "SLURMWISE_NO_LLM", "1",
                "SLURMWISE_EMBEDDINGS", "hash", "SLURMWISE_HOME", dir.resolve("home").toString());
        ServerParameters params = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()).args("-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp")
                .env(env).build();
        McpSyncClient client = McpClient.sync(new StdioClientTransport(params, new JacksonMcpJsonMapper(new ObjectMapper())))
                .requestTimeout(Duration.ofSeconds(120)).initializationTimeout(Duration.ofSeconds(120)).build();
        List<String> hostile = List.of("1;scancel 5", "$(scancel 4711)", "`scancel 4711`", "4711 --clusters=all",
                "--help", "-M all", "4711\nscancel 4711", "../../etc/passwd", "4711_[1-999999999]");
        Map<String, Integer> answered = new LinkedHashMap<>();
        try {
            client.initialize();
            List<Map.Entry<String, Map<String, Object>>> calls = new ArrayList<>();
            for (String h : hostile) {
                for (String tool : List.of("get_job", "diagnose_job", "read_job_log", "explain_pending", "suggest_patch",
                        "job_efficiency")) {
                    calls.add(Map.entry(tool, Map.of("job_id", h)));
                }
                calls.add(Map.entry("diagnose_job", Map.of("job_ids", List.of("4711", h))));
                calls.add(Map.entry("list_jobs", Map.of("user", h)));
                calls.add(Map.entry("list_jobs", Map.of("partition", h)));
                calls.add(Map.entry("list_jobs", Map.of("states", h)));
                calls.add(Map.entry("list_jobs", Map.of("name", h)));
                calls.add(Map.entry("list_jobs", Map.of("since", h)));
                calls.add(Map.entry("fleet_stats", Map.of("since", h)));
                calls.add(Map.entry("partition_limits", Map.of("partition", h)));
            }
            // and the sane calls, so that the real backend's queries all ran at least once
            calls.add(Map.entry("list_jobs", Map.of("since", "2026-11-01", "until", "2026-11-30")));
            calls.add(Map.entry("get_job", Map.of("job_id", "4711")));
            calls.add(Map.entry("diagnose_job", Map.of("job_id", "4711")));
            calls.add(Map.entry("read_job_log", Map.of("job_id", "4711")));
            calls.add(Map.entry("suggest_patch", Map.of("job_id", "4711")));
            calls.add(Map.entry("explain_pending", Map.of()));
            calls.add(Map.entry("partition_limits", Map.of()));
            calls.add(Map.entry("job_efficiency", Map.of("job_id", "4711")));
            calls.add(Map.entry("fleet_stats", Map.of("since", "now-14days")));
            for (Map.Entry<String, Map<String, Object>> c : calls) {
                McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(c.getKey(), c.getValue()));
                assertThat(r.content()).as(c.toString()).isNotEmpty();
                answered.merge(c.getKey(), 1, Integer::sum);
            }
        } finally {
            client.closeGracefully();
        }
        List<String> ran = Files.exists(log) ? Files.readAllLines(log) : List.of();
        System.out.println("MCP on the real backend: " + answered + " calls answered; SLURM commands run: " + ran.size()
                + ", of the forms " + ran.stream().map(l -> l.replaceAll("\t(\\S+).*", " $1")).distinct().sorted().toList());
        assertThat(ran).as("the real backend asked sacct").anySatisfy(l -> assertThat(l).startsWith("sacct\t"));
        for (String line : ran) {
            List<String> argv = List.of(line.split("\t", -1));
            assertThat(allowed(argv)).as("only read-only SLURM queries run: " + line).isTrue();
            for (String a : argv.subList(1, argv.size())) {
                // nothing a client sent is an argument, an option or a part of one (a job id is checked first)
                for (String h : hostile) {
                    assertThat(a).as(line).doesNotContain(h).doesNotContain("scancel");
                }
            }
        }
    }

    /** The allowlist of scripts/ci/allowlist-shims.sh: sacct, sinfo, squeue; scontrol's reads; the exact reads of QOS. */
    static boolean allowed(List<String> argv) {
        String tool = argv.get(0);
        List<String> a = argv.subList(1, argv.size());
        String all = String.join(" ", a);
        return switch (tool) {
            case "sacct", "sinfo", "squeue" -> true;
            case "scontrol" -> !a.isEmpty() && (a.get(0).equals("show") || a.get(0).equals("--version")
                    || a.size() > 1 && a.get(0).equals("write") && a.get(1).equals("batch_script"));
            case "sacctmgr" -> all.equals("-n -P show qos format=Name,MaxWall,Preempt") || all.equals("--version")
                    || a.size() == 7 && String.join(" ", a.subList(0, 5)).equals("-n -P show assoc where")
                    && a.get(5).matches("user=[A-Za-z0-9_][A-Za-z0-9_.@+-]*")
                    && a.get(6).equals("format=Account,User,Partition,QOS");
            case "sshare" -> all.equals("--version") || a.size() == 6
                    && String.join(" ", a.subList(0, 5)).equals("-n -P -o Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins -A")
                    && a.get(5).matches("[A-Za-z0-9_][A-Za-z0-9_.@+-]*");
            default -> false;
        };
    }
}
