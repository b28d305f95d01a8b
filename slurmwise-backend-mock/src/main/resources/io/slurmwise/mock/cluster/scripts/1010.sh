#!/bin/bash
#SBATCH --job-name=coco_prep
#SBATCH --account=vision-lab
#SBATCH --partition=cpu
#SBATCH --cpus-per-task=16
#SBATCH --mem-per-cpu=2G
#SBATCH --time=02:00:00
#SBATCH --output=logs/%x.%j.out
#SBATCH --error=logs/%x.%j.err

eval "$(/home/dana/miniforge3/bin/conda shell.bash hook)"
conda activate seg

DST=/projects/vision-lab/shared/coco2017/panoptic_cache
mkdir -p $DST
python tools/coco_prep.py \
    --src /projects/vision-lab/shared/coco2017 \
    --dst $DST --workers $SLURM_CPUS_PER_TASK --shard 2000
