#!/bin/bash
#SBATCH --job-name=fastp_trim
#SBATCH --account=genomics
#SBATCH --partition=cpu
#SBATCH --array=1-5
#SBATCH --cpus-per-task=8
#SBATCH --mem=16G
#SBATCH --time=02:00:00
#SBATCH --output=logs/%x-%A_%a.out
#SBATCH --error=logs/%x-%A_%a.err

set -euo pipefail
module load fastp/0.23.4

cd /scratch/bob/trim
S=$(sed -n "${SLURM_ARRAY_TASK_ID}p" samples.txt)          # S01..S05
R1=raw/${S}_R1.fastq.gz
R2=raw/${S}_R2.fastq.gz
echo "task $SLURM_ARRAY_TASK_ID: started $(date)"
echo "task $SLURM_ARRAY_TASK_ID: sample $S on $(hostname)"
ls -l raw/${S}_*
zcat $R1 | head -n 4 > /dev/null                          # fail early on a bad input
fastp -i $R1 -I $R2 -o out/${S}_R1.trim.fq.gz -O out/${S}_R2.trim.fq.gz \
      -w $SLURM_CPUS_PER_TASK -j out/${S}.fastp.json -h out/${S}.fastp.html
echo "task $SLURM_ARRAY_TASK_ID: done"
