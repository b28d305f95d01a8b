#!/bin/bash
#SBATCH --job-name=resume_sft
#SBATCH --account=llm-lab
#SBATCH --partition=gpuA100x4
#SBATCH --gres=gpu:a100:1
#SBATCH --cpus-per-task=16
#SBATCH --mem=96G
#SBATCH --time=08:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load anaconda3/2023.09
source activate /scratch/alice/envs/llama

CKPT=checkpoints/sft-v3/step_4000
echo "resume_sft: config configs/sft_v3.yaml, resume=$CKPT"
python train_sft.py --config configs/sft_v3.yaml --resume $CKPT
