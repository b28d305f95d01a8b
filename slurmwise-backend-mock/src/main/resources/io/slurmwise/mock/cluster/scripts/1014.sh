#!/bin/bash
#SBATCH --job-name=gromacs_bench
#SBATCH --account=cfd-sim
#SBATCH --partition=cpu
#SBATCH --nodes=1
#SBATCH --ntasks=8
#SBATCH --cpus-per-task=8
#SBATCH --mem=64G
#SBATCH --time=01:00:00
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err

module load gcc/12.2.0 openmpi/4.1.6
export PATH=$HOME/sw/gromacs-2024.2-spr/bin:$PATH
export OMP_NUM_THREADS=$SLURM_CPUS_PER_TASK

echo "host $(hostname): $(grep -m1 'model name' /proc/cpuinfo)"
echo "gmx_mpi: $(which gmx_mpi) (configured on login02 with -march=sapphirerapids)"
echo "benchmark: benchMEM.tpr, $SLURM_NTASKS ranks x $OMP_NUM_THREADS OpenMP threads"
srun gmx_mpi mdrun -s benchMEM.tpr -ntomp $OMP_NUM_THREADS -nsteps 20000 -resethway -noconfout
