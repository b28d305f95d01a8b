#!/bin/bash
#SBATCH --job-name=cfd_postproc
#SBATCH --account=cfd-sim
#SBATCH --partition=cpu
#SBATCH --cpus-per-task=16
#SBATCH --mem=64G
#SBATCH --time=04:00:00
#SBATCH --dependency=afterok:1051
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err

source ~/venvs/post/bin/activate
python scripts/channel_stats.py --case . --from 10 --to latest --out stats/
