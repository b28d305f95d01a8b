#!/bin/bash
#SBATCH --job-name=ddp_resnet_2node
#SBATCH --account=vision-lab
#SBATCH --partition=gpuA100x4
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=64
#SBATCH --gres=gpu:a100:4
#SBATCH --mem=240G
#SBATCH --time=10:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

eval "$(/home/dana/miniforge3/bin/conda shell.bash hook)"
conda activate resnet

export NCCL_DEBUG=INFO
head=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n1)

srun torchrun --nnodes=$SLURM_NNODES --nproc_per_node=4 \
     --rdzv_backend=c10d --rdzv_endpoint=$head:29400 --rdzv_id=$SLURM_JOB_ID \
     train_imagenet.py --arch resnet152 --epochs 90 --batch-size 128 --lr 0.2 --workers 14
