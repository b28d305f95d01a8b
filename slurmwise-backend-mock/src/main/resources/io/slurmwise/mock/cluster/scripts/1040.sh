#!/bin/bash
#SBATCH --job-name=sft_8gpu
#SBATCH --account=llm-lab
#SBATCH --partition=gpuA100x4
#SBATCH --nodes=1
#SBATCH --gres=gpu:a100:8
#SBATCH --cpus-per-task=64
#SBATCH --mem=240G
#SBATCH --time=12:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load anaconda3/2023.09
source activate /scratch/alice/envs/llama
torchrun --standalone --nproc_per_node=8 train_sft.py --config configs/sft_v2_full.yaml
