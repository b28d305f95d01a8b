#!/bin/bash
#SBATCH --job-name=galaxy_vit
#SBATCH --account=astro-ml
#SBATCH --partition=gpuA100x4
#SBATCH --gres=gpu:a100:4
#SBATCH --cpus-per-task=64
#SBATCH --mem=220G
#SBATCH --time=12:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

source /projects/astro-ml/frank/envs/galaxy/bin/activate
torchrun --standalone --nproc_per_node=4 train.py --config configs/vit_b16_galaxy10.yaml
