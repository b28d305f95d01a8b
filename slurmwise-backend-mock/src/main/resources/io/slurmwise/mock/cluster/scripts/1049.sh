#!/bin/bash
#SBATCH --job-name=galaxy_eval
#SBATCH --account=astro-ml
#SBATCH --partition=gpuA100x4
#SBATCH --gres=gpu:a100:1
#SBATCH --cpus-per-task=16
#SBATCH --mem=64G
#SBATCH --time=01:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

source /projects/astro-ml/frank/envs/galaxy/bin/activate
python evaluate.py --ckpt runs/vit_b16_galaxy10/epoch023.pt --split test --out results/
