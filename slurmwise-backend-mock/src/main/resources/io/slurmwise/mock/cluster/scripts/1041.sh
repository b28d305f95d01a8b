#!/bin/bash
#SBATCH --job-name=astro_foundation
#SBATCH --account=astro-ml
#SBATCH --partition=gpuH100x8
#SBATCH --qos=gpu
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-task=1
#SBATCH --cpus-per-task=12
#SBATCH --mem=1000G
#SBATCH --exclusive
#SBATCH --time=24:00:00
#SBATCH --output=logs/%x_%j.out
#SBATCH --error=logs/%x_%j.err

module load cuda/11.8 nccl/2.18.3
source /projects/astro-ml/frank/envs/found/bin/activate

export MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n1)
export MASTER_PORT=29511
srun -l python train_foundation.py --config configs/found_v2.yaml --nccl-timeout-min 30
