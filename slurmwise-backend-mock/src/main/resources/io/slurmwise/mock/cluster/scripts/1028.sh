#!/bin/bash
#SBATCH --job-name=mask2former
#SBATCH --account=vision-lab
#SBATCH --partition=gpuA100x4
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=64
#SBATCH --gres=gpu:a100:4
#SBATCH --mem=200G
#SBATCH --time=12:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

eval "$(/home/dana/miniforge3/bin/conda shell.bash hook)"
conda activate m2f
module load cuda/12.1     # for the custom MSDeformAttn op built in ./ops

srun torchrun --standalone --nproc_per_node=4 train_net.py \
    --config-file configs/ade20k/semantic-segmentation/swin/maskformer2_swin_large_IN21k_384_bs16_160k.yaml \
    SOLVER.IMS_PER_BATCH 16 DATALOADER.NUM_WORKERS 12
