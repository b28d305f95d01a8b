#!/bin/bash
#SBATCH --job-name=llama_sft_v3
#SBATCH --account=llm-lab
#SBATCH --partition=gpuH100x8
#SBATCH --qos=gpu
#SBATCH --nodes=1
#SBATCH --gres=gpu:h100:8
#SBATCH --cpus-per-task=96
#SBATCH --mem=1000G
#SBATCH --time=12:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load anaconda3/2023.09
source activate /scratch/alice/envs/llama
torchrun --standalone --nproc_per_node=8 train_sft.py --config configs/sft_v3_full.yaml
