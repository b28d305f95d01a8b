#!/bin/bash
#SBATCH --job-name=merge_lora
#SBATCH --account=llm-lab
#SBATCH --partition=gpuA100x4
#SBATCH --gres=gpu:a100:1
#SBATCH --cpus-per-task=16
#SBATCH --mem=64G
#SBATCH -t 1:00:00
#SBATCH --dependency=afterok:1031
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load cuda/12.1 py-torch/2.3.0
python tools/merge_lora.py --base checkpoints/sft-v2-merged --adapter checkpoints/dpo-v1 --out checkpoints/dpo-v1-merged
