#!/bin/bash
#SBATCH -J wrf_ensemble
#SBATCH -A climate-model
#SBATCH -p cpu
#SBATCH -N 2
#SBATCH --ntasks-per-node=128
#SBATCH --mem=240G
#SBATCH -t 08:00:00
#SBATCH -o /scratch/erik/wrf/logs/wrf_ensemble.%j.out
#SBATCH -e /scratch/erik/wrf/logs/wrf_ensemble.%j.err

module load intel-oneapi-compilers/2023.2.1 intel-oneapi-mpi/2021.10.0 netcdf-fortran/4.6.1 wrf/4.5.2

ENS=/scratch/erik/wrf/ens_20261108
echo "$(date) ensemble 20261108: 5 members x 24h, $SLURM_NTASKS ranks"
for m in 01 02 03 04 05; do
    cd $ENS/mem$m
    echo "$(date) member $m start"
    t0=$SECONDS
    srun --mpi=pmi2 wrf.exe
    echo "$(date) member $m done ($(date -u -d @$((SECONDS-t0)) +%-H:%M:%S))"
done
