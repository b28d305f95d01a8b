#!/bin/bash
#SBATCH --job-name=of_bench
#SBATCH --account=cfd-sim
#SBATCH --partition=cpu
#SBATCH --nodes=1
#SBATCH --ntasks=128
#SBATCH --mem=200G
#SBATCH --time=01:00:00
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err

module load gcc/12.2.0 openmpi/4.1.6 openfoam/v2306
source $FOAM_BASH
cd motorBike
srun --mpi=pmix simpleFoam -parallel
