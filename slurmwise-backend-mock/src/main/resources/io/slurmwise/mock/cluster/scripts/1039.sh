#!/bin/bash
#SBATCH --job-name=sam_finetune
#SBATCH --account=vision-lab
#SBATCH --partition=gpuH100x8
#SBATCH --qos=scavenger      # cheap, but can be preempted
#SBATCH --gres=gpu:h100:4
#SBATCH --cpus-per-task=48
#SBATCH --mem=480G
#SBATCH --time=1-00:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

eval "$(/home/dana/miniforge3/bin/conda shell.bash hook)"
conda activate sam

srun python finetune_sam.py --model vit_h --data /projects/vision-lab/shared/sa1b_subset --gpus 4 --ckpt-dir ckpt/sam_ft
