#!/bin/bash
#SBATCH --job-name=cfd_sweep_07
#SBATCH --account=cfd-sim
#SBATCH --partition=cpu
#SBATCH --ntasks=128
#SBATCH --mem=128G
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err

module load gcc/12.2.0 openmpi/4.1.6 openfoam/v2306
source $FOAM_BASH
srun --mpi=pmix pimpleFoam -parallel
