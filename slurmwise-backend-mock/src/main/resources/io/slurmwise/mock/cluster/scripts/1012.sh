#!/bin/sh
#SBATCH --job-name=cesm_postproc
#SBATCH --account=climate-model
#SBATCH --partition=cpu
#SBATCH --ntasks=32
#SBATCH --mem=96G
#SBATCH --time=03:00:00
#SBATCH --export=NONE
#SBATCH --output=/scratch/erik/cesm/logs/%x.%j.out
#SBATCH --error=/scratch/erik/cesm/logs/%x.%j.err

module purge
module load intel-oneapi-mpi/2021.10.0 nco/5.1.9 pyreshaper/1.3.1

cd /scratch/erik/cesm/b.e21.BSSP585
echo "$(date) cesm_postproc: case b.e21.BSSP585.f09_g17.001 years 2071-2100"
echo "building timeseries for 42 atm variables with $SLURM_NTASKS ranks"

mpirun -np $SLURM_NTASKS s2srun --serial=False --netcdf_format=netcdf4 specs/atm_2071-2100.s2s
