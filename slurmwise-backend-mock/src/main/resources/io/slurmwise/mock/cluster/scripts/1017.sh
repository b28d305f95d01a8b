#!/bin/bash
#SBATCH --job-name=sft_sweep_lr3e5
#SBATCH --account=llm-lab
#SBATCH --partition=gpuA100x4
#SBATCH --gres=gpu:a100:1
#SBATCH --cpus-per-task=16
#SBATCH --mem=48G
#SBATCH --time=06:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load anaconda3/2023.09
source activate /scratch/alice/envs/llama
export WANDB_PROJECT=sft-sweep

python train_sft.py --config configs/sweep/lr3e-5.yaml --dataloader_num_workers 4 --report_to wandb
