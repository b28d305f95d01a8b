#!/bin/bash
#SBATCH -J wrf_hindcast
#SBATCH -A climate-model
#SBATCH -p long
#SBATCH --qos=long
#SBATCH -N 4
#SBATCH --ntasks-per-node=128
#SBATCH --mem=240G
#SBATCH -t 5-00:00:00
#SBATCH -o /scratch/erik/wrf/logs/wrf_hindcast.%j.out
#SBATCH -e /scratch/erik/wrf/logs/wrf_hindcast.%j.err

module load intel-oneapi-compilers/2023.2.1 intel-oneapi-mpi/2021.10.0 netcdf-fortran/4.6.1 wrf/4.5.2
cd /scratch/erik/wrf/hindcast_2025
srun --mpi=pmi2 wrf.exe
