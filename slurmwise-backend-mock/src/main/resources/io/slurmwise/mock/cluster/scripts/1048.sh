#!/bin/bash
#SBATCH --job-name=cfd_restart
#SBATCH --account=cfd-sim
#SBATCH --partition=cpu
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=128
#SBATCH --mem=128G
#SBATCH --time=1-00:00:00
#SBATCH --output=log.%x.%j
#SBATCH --error=err.%x.%j

module load gcc/12.2.0 openmpi/4.1.6 openfoam/v2306
source $FOAM_BASH
cd /scratch/chen/cavity_les
foamDictionary -entry writeInterval -set 1 system/controlDict   # every step, for the spectra
srun --mpi=pmix pimpleFoam -parallel
