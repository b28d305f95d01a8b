#!/bin/bash
#SBATCH --job-name=les_7day
#SBATCH --account=cfd-sim
#SBATCH --partition=long
#SBATCH --qos=long
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=128
#SBATCH --mem=200G
#SBATCH --time=7-00:00:00
#SBATCH --output=log.%x.%j
#SBATCH --error=err.%x.%j

module load gcc/12.2.0 openmpi/4.1.6 openfoam/v2306
source $FOAM_BASH
cd /scratch/chen/les_channel_hr
srun --mpi=pmix pimpleFoam -parallel
