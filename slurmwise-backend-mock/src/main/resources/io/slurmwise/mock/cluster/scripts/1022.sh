#!/bin/bash
#SBATCH --job-name=pretrain_1b_2node
#SBATCH --account=llm-lab
#SBATCH --partition=gpuA100x4
#SBATCH --qos=gpu
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=64
#SBATCH --gpus-per-node=a100:4
#SBATCH --mem=240G
#SBATCH --exclusive
#SBATCH --time=12:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load cuda/12.4 nccl/2.20.5
source /projects/llm-lab/alice/envs/pt23/bin/activate

export NCCL_DEBUG=INFO
export NCCL_IB_HCA=mlx5_0,mlx5_1
export OMP_NUM_THREADS=8
head_node=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)

srun --kill-on-bad-exit=1 torchrun \
    --nnodes=$SLURM_NNODES --nproc_per_node=4 \
    --rdzv_id=$SLURM_JOB_ID --rdzv_backend=c10d --rdzv_endpoint=$head_node:29500 \
    pretrain.py --config configs/llama1b.yaml
