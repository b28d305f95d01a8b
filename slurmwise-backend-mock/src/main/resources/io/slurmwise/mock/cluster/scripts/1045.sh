#!/bin/bash
#SBATCH --job-name=era5_ingest
#SBATCH --account=climate-model
#SBATCH --partition=largemem
#SBATCH --cpus-per-task=32
#SBATCH --mem=400G
#SBATCH --output=logs/%x.%j.out
#SBATCH --error=logs/%x.%j.err

module load anaconda3/2023.09
source activate era5
echo "$(date) era5_ingest: 47 years, 11 variables -> /projects/climate-model/era5/era5_hourly.zarr"
python ingest.py --years 1979-2025 --out /projects/climate-model/era5/era5_hourly.zarr --workers $SLURM_CPUS_PER_TASK
