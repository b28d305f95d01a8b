#!/bin/bash
#SBATCH --job-name=scanpy_cluster
#SBATCH --partition=cpu
#SBATCH --account=genomics
#SBATCH --cpus-per-task=8
#SBATCH --mem=32G
#SBATCH --time=2:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

source ~/venvs/sc/bin/activate
echo "python: $(which python) ($(python --version 2>&1))"
echo "[$(date +%T)] clustering /scratch/bob/sc/pbmc_10k.h5ad (resolution=0.8)"
python cluster.py --input pbmc_10k.h5ad --resolution 0.8 --out results/pbmc_10k_leiden.h5ad
