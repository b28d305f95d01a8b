#!/bin/bash
#SBATCH --job-name=segformer_train
#SBATCH --account=vision-lab
#SBATCH --partition=gpuA100x4
#SBATCH --gres=gpu:a100:1
#SBATCH --cpus-per-task=16
#SBATCH --mem=96G
#SBATCH --time=08:00:00
#SBATCH --output=logs/%x.%j.out
#SBATCH --error=logs/%x.%j.err

module load apptainer/1.3.4
IMG=/projects/vision-lab/containers/seg_2024.10.sif

# --containall keeps the host environment out (and gives the container its own small /dev/shm)
apptainer exec --nv --containall \
    -B /home/dana/seg:/workspace/seg -B /projects/vision-lab/shared/ade20k:/data/ade20k \
    $IMG python /workspace/seg/train.py --config configs/segformer_b4_ade20k.py --workers 12
