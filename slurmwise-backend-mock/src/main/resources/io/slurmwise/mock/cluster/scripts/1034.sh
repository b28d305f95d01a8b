#!/bin/bash
#SBATCH --job-name=kraken2_build
#SBATCH --account=genomics
#SBATCH --partition=cpu
#SBATCH --cpus-per-task=32
#SBATCH --mem=2000G
#SBATCH --time=1-00:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load kraken2/2.1.3
kraken2-build --build --db /scratch/bob/kraken/nt_2026 --threads $SLURM_CPUS_PER_TASK --max-db-size 1900000000000
