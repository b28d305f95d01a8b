#!/bin/bash
#SBATCH --job-name=eval_seg
#SBATCH --account=vision-lab
#SBATCH --partition=gpuA100x4
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --exclusive
#SBATCH --gres=gpu:a100:4
#SBATCH --cpus-per-task=64
#SBATCH --mem=240G
#SBATCH --time=02:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

eval "$(/home/dana/miniforge3/bin/conda shell.bash hook)"
conda activate seg
export NCCL_DEBUG=INFO

srun torchrun --standalone --nproc_per_node=4 eval_seg.py --ckpts ckpts.txt --ms-flip --out results/eval_20261123.csv
