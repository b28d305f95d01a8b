#!/bin/bash
#SBATCH --job-name=scgpt_finetune
#SBATCH --account=genomics
#SBATCH --partition=gpuH100x8
#SBATCH --qos=gpu
#SBATCH --gres=gpu:h100:1
#SBATCH --cpus-per-task=12
#SBATCH --mem-per-gpu=96G
#SBATCH --time=08:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

# same env as on gpuA100x4 last month
source ~/venvs/scgpt/bin/activate
python finetune.py --task annotation --pretrained models/scGPT_human --data data/pbmc_10k.h5ad --epochs 10
