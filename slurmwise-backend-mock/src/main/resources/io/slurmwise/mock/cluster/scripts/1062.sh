#!/bin/bash
#SBATCH -J cdo_remap_daily
#SBATCH -A climate-model
#SBATCH -p cpu
#SBATCH -c 4
#SBATCH --mem=8G
#SBATCH -t 2:00:00
#SBATCH -o logs/%x-%j.out
#SBATCH -e logs/%x-%j.err

module load cdo/2.2.0
echo "== $SLURM_JOB_NAME $SLURM_JOB_ID on $(hostname), $(date)"
echo "remapping tas_day_CESM2_historical_r1i1p1f1_gn_*.nc (1980-2014) -> r360x180 (remapbil)"
srun cdo -P 4 remapbil,r360x180 -mergetime 'raw/tas_day_CESM2_historical_r1i1p1f1_gn_*.nc' tas_day_r360x180.nc
echo "postprocessing finished: tas_day_r360x180.nc"
