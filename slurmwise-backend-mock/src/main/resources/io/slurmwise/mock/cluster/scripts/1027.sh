#!/bin/bash
#SBATCH --job-name=ckpt_convert
#SBATCH --account=llm-lab
#SBATCH --partition=cpu
#SBATCH --cpus-per-task=8
#SBATCH --mem=64G
#SBATCH --time=04:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load anaconda3/2023.09
source activate /scratch/alice/envs/llama

OUT=$HOME/ckpt_export/llama-7b-sft-v2
echo "ckpt_convert: checkpoints/sft-v2/checkpoint-3500 -> $OUT (safetensors, 15 shards)"
python -m ckpt_tools.save --src checkpoints/sft-v2/checkpoint-3500 --dst $OUT --format safetensors --shards 15 --retry 20 --retry-wait 300
