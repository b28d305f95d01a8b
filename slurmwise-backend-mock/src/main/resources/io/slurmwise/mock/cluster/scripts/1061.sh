#!/bin/bash
#SBATCH --job-name=mae_pretrain
#SBATCH --account=vision-lab
#SBATCH --partition=gpuH100x8
#SBATCH --qos=gpu
#SBATCH --exclusive
#SBATCH --gres=gpu:h100:8
#SBATCH --cpus-per-task=96
#SBATCH --mem=1000G
#SBATCH --time=1-00:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

eval "$(/home/dana/miniforge3/bin/conda shell.bash hook)"
conda activate mae
torchrun --standalone --nproc_per_node=8 main_pretrain.py --model mae_vit_large_patch16 --batch_size 256 --epochs 400
