#!/bin/bash
#SBATCH -J wrf_forecast
#SBATCH -A climate-model
#SBATCH -p cpu
#SBATCH -N 4
#SBATCH --ntasks-per-node=128
#SBATCH --mem=240G
#SBATCH -t 06:00:00
#SBATCH -o /scratch/erik/wrf/logs/wrf_forecast.%j.out
#SBATCH -e /scratch/erik/wrf/logs/wrf_forecast.%j.err
#SBATCH --mail-type=FAIL
#SBATCH --mail-user=erik@example.edu

module load intel-oneapi-compilers/2023.2.1 intel-oneapi-mpi/2021.10.0 netcdf-fortran/4.6.1 wrf/4.5.2

RUN=/scratch/erik/wrf/run_20261102
cd $RUN
echo "$(date): wrf_forecast 2026110200 starting on $(hostname) ($SLURM_NNODES nodes, $SLURM_NTASKS ranks)"
grep -E 'e_we|e_sn|e_vert|dx|time_step|run_hours' namelist.input | tr -s ' ' | paste -sd' ' | sed 's/^/namelist: /'
echo "linking met_em files: $(ls met_em.d01.* | wc -l) found"
echo "$(date): real.exe finished earlier (wrfinput_d01, wrfbdy_d01 present)"
echo "$(date): srun wrf.exe"
srun --mpi=pmi2 wrf.exe
tail -n 3 rsl.error.0000
