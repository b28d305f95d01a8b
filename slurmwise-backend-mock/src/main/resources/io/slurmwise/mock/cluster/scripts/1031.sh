#!/bin/bash
#SBATCH --job-name=llama_dpo
#SBATCH --account=llm-lab
#SBATCH --partition=gpuA100x4
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=64
#SBATCH --gres=gpu:a100:4
#SBATCH --mem-per-gpu=50G
#SBATCH --time=10:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module purge
module load cuda/12.1 pytorch/2.3.0

echo "llama_dpo: beta=0.1, ref=checkpoints/sft-v2-merged, data=data/prefs_v1.jsonl"
srun python dpo_train.py --beta 0.1 --ref checkpoints/sft-v2-merged --data data/prefs_v1.jsonl --out checkpoints/dpo-v1
