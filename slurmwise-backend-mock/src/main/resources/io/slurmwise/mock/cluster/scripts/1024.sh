#!/bin/bash
#SBATCH --job-name=cavity_les_fine
#SBATCH --account=cfd-sim
#SBATCH --partition=cpu
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=128
#SBATCH --mem-per-cpu=1G      # same as the coarse run (1003)
#SBATCH --time=12:00:00
#SBATCH --output=log.%x.%j
#SBATCH --error=err.%x.%j

module load gcc/12.2.0 openmpi/4.1.6 openfoam/v2306
source $FOAM_BASH
cd /scratch/chen/cavity_les_fine
srun --kill-on-bad-exit=1 --mpi=pmix pimpleFoam -parallel
