#!/bin/bash
#SBATCH --job-name=eval_harness
#SBATCH --account=llm-lab
#SBATCH --partition=gpuA100x4
#SBATCH --gres=gpu:a100:1
#SBATCH --cpus-per-task=16
#SBATCH --mem=64G
#SBATCH -t 2:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load anaconda3/2023.09
source activate /scratch/alice/envs/llama

lm_eval --model hf \
    --model_args pretrained=/scratch/alice/llama/checkpoints/sft-v1-merged,dtype=bfloat16 \
    --tasks arc_challenge,hellaswag,mmlu,truthfulqa_mc2,winogrande \
    --batch_size 16 --output_path results/sft-v1
