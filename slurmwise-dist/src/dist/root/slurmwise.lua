-- -*- lua -*-
-- slurmwise ${project.version}: why did my SLURM job fail, what do I change, what do failures cost (read-only).
-- install.sh fills in the prefix; left as shipped, the prefix is found from this file's place in the archive.
local prefix = "@PREFIX@"
if prefix:sub(1, 1) == "@" then
  prefix = myFileName():gsub("/share/modulefiles/[^/]+/[^/]+$", "")
end

whatis("Name: slurmwise")
whatis("Version: ${project.version}")
whatis("Description: diagnoses failed SLURM jobs and reports what failures cost; never changes the cluster")
whatis("URL: ${project.url}")

help([[
slurmwise ${project.version}: why did my SLURM job fail, and what do I change?

  slurmwise diagnose <jobid>       the cause, its evidence and the fixes
  slurmwise jobs --state FAILED    your failed jobs
  slurmwise stats                  what failures cost
  slurmwise --help                 everything else; `man slurmwise`

Bash completion: source ]] .. pathJoin(prefix, "share/completion/slurmwise.bash") .. [[

State goes to $SLURMWISE_HOME (default ~/.slurmwise); nothing is written under the install folder.
]])

conflict("slurmwise")
prepend_path("PATH", pathJoin(prefix, "bin"))
prepend_path("MANPATH", pathJoin(prefix, "share/man"))
