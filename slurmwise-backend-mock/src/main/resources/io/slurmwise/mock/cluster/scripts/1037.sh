#!/bin/bash
#SBATCH --job-name=xesmf_regrid
#SBATCH --account=climate-model
#SBATCH --partition=cpu
#SBATCH --cpus-per-task=16
#SBATCH --mem=64G
#SBATCH --time=04:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

# env exported from the workstation: conda env create -f regrid2.yml
export PATH=/home/erik/.conda/envs/regrid2/bin:$PATH
echo "xesmf_regrid: pr day MPI-ESM1-2-HR ssp245 -> 1deg (bilinear)"
python regrid_xesmf.py --var pr --model MPI-ESM1-2-HR --exp ssp245 --res 1.0 --method bilinear
