#!/bin/bash
#SBATCH --job-name=train_unet_seg
#SBATCH --account=vision-lab
#SBATCH --partition=gpuA100x4
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=16
#SBATCH --gres=gpu:a100:1
#SBATCH --mem=64G
#SBATCH --time=12:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

eval "$(/home/dana/miniforge3/bin/conda shell.bash hook)"
conda activate seg

python train_unet.py \
    --arch unet_r50 --dataset cityscapes --crop 1024 512 \
    --batch-size 8 --epochs 10 --amp --workers 12 \
    --out runs/unet_r50_city
