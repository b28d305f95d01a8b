#!/bin/bash
#SBATCH --job-name=amgx_cfd_gpu
#SBATCH --account=cfd-sim
#SBATCH --partition=gpuH100x8
#SBATCH --qos=gpu
#SBATCH --ntasks=2
#SBATCH --gpus-per-task=h100:1
#SBATCH --cpus-per-task=12
#SBATCH --mem=240G
#SBATCH --time=36:00:00
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err

module load gcc/12.2.0 openmpi/4.1.6 cuda/12.4 openfoam/v2306 petsc4foam/2023.06 amgx/2.4.0
source $FOAM_BASH
srun --mpi=pmix pimpleFoam -parallel -lib petscFoam
