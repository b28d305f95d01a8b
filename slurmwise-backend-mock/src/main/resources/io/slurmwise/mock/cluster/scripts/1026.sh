#!/bin/bash
#SBATCH --job-name=cmip6_regrid
#SBATCH --account=climate-model
#SBATCH --partition=cpu
#SBATCH --cpus-per-task=32
#SBATCH --mem=128G
#SBATCH --time=12:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load anaconda3/2023.09
source activate regrid

export TMPDIR=/tmp/${USER}_${SLURM_JOB_ID}
mkdir -p $TMPDIR
echo "cmip6_regrid: tas day EC-Earth3 ssp585 r1i1p1f1 -> 0.25deg (conservative), years 2015-2100, TMPDIR=/tmp"
python regrid.py --var tas --model EC-Earth3 --exp ssp585 --member r1i1p1f1 --grid 0.25 --years 2015-2100 \
    --tmpdir $TMPDIR --out /projects/climate-model/cmip6_regridded/
