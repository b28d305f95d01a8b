#!/bin/bash
#SBATCH --job-name=velvet_meta
#SBATCH --account=genomics
#SBATCH --partition=largemem
#SBATCH --nodes=1
#SBATCH --cpus-per-task=64
#SBATCH --mem=500G
## no --time: largemem has no MaxTime
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load velvet/1.2.10-maxkmer127

export OMP_NUM_THREADS=$SLURM_CPUS_PER_TASK
cd /scratch/bob/asm
echo "velvet_meta: k=61 reads=/scratch/bob/asm/reads/soil_MG_interleaved.fq.gz (1.21e9 pairs)"
echo "$(date): velveth done earlier (out_k61/Sequences, Roadmaps present)"
echo "$(date): starting velvetg"
velvetg out_k61 -exp_cov auto -cov_cutoff auto -min_contig_lgth 500 -read_trkg no
echo "$(date): velvetg finished"
