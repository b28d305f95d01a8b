#!/bin/bash
#SBATCH --job-name=train_llama_sft
#SBATCH --account=llm-lab
#SBATCH --partition=gpuA100x4
#SBATCH --qos=gpu
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=16
#SBATCH --gres=gpu:a100:1
#SBATCH --mem=32G
#SBATCH --time=08:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

# LoRA SFT, v2 data mix
module purge
module load cuda/12.1 anaconda3/2023.09
source activate /scratch/alice/envs/llama

export HF_HOME=/scratch/alice/hf_cache
export TOKENIZERS_PARALLELISM=false

echo "==== job $SLURM_JOB_ID on $(hostname) | $(date) ===="
echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"
python --version
python -c 'import torch, transformers, peft, datasets; print(f"torch {torch.__version__} | transformers {transformers.__version__} | peft {peft.__version__} | datasets {datasets.__version__}")'

python train_sft.py \
    --model_name_or_path /scratch/alice/models/Llama-2-7b-hf \
    --dataset data/sft_mix_v2.jsonl \
    --output_dir checkpoints/sft-v2 \
    --per_device_train_batch_size 4 \
    --gradient_accumulation_steps 8 \
    --num_train_epochs 3 \
    --bf16 --gradient_checkpointing \
    --dataloader_num_workers 12 \
    --evaluation_strategy no \
    --lora_r 16 --lora_alpha 32
