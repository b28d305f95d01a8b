#!/bin/bash
#SBATCH --job-name=pretrain_7b_v2
#SBATCH --account=llm-lab
#SBATCH --partition=gpuH100x8
#SBATCH --qos=gpu
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=8
#SBATCH --cpus-per-task=12
#SBATCH --gres=gpu:h100:8
#SBATCH --mem=1000G
#SBATCH --exclusive
#SBATCH --time=1-00:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load cuda/12.4 nccl/2.20.5
source /projects/llm-lab/alice/envs/pt23/bin/activate

export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_PORT=29500
export OMP_NUM_THREADS=$SLURM_CPUS_PER_TASK
export TORCH_NCCL_ASYNC_ERROR_HANDLING=1
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True    # after the OOM in 1008

srun -l --cpu-bind=cores python pretrain.py --config configs/llama7b_fsdp.yaml --seq_len 8192 --micro_bs 1 \
     --grad_accum 8 --activation_checkpointing --resume checkpoints/llama7b/step_1500
