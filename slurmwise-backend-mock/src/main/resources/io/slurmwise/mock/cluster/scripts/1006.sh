#!/bin/bash
#SBATCH --job-name=tokenize_corpus
#SBATCH --account=llm-lab
#SBATCH --partition=cpu
#SBATCH --cpus-per-task=64
#SBATCH --mem=128G
#SBATCH --time=04:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load anaconda3/2023.09
source activate /scratch/alice/envs/llama
python tools/tokenize_corpus.py --num_proc $SLURM_CPUS_PER_TASK --seq_len 2048 --out data/tok
