#!/bin/bash
#SBATCH --job-name=julia_mpi_solver
#SBATCH --account=cfd-sim
#SBATCH --partition=cpu
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=128
#SBATCH --mem=200G
#SBATCH --time=08:00:00
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err

module load julia/1.10.4 openmpi/4.1.6
export JULIA_PROJECT=/scratch/chen/jl_solver
export JULIA_MPI_BINARY=system

srun --mpi=pmix julia --startup-file=no run.jl --grid 4096 4096 512 --tol 1e-8
