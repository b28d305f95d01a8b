#!/bin/bash
#SBATCH --job-name=rnaseq_snakemake
#SBATCH --account=genomics
#SBATCH --partition=long
#SBATCH --qos=long
#SBATCH --cpus-per-task=2
#SBATCH --mem=8G
#SBATCH --time=3-00:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

# head job: snakemake submits every rule as its own SLURM job
source ~/miniforge3/bin/activate snakemake
echo "snakemake $(snakemake --version) | profile: profiles/delta | cores: 2 | jobs: 200"
snakemake --profile profiles/delta --executor slurm --jobs 200 --cores 2
