#!/bin/bash
#SBATCH -J lammps_melt
#SBATCH -A cfd-sim
#SBATCH -p cpu
#SBATCH -N 1 --ntasks-per-node=128
#SBATCH --mem=64G
#SBATCH -t 4:00:00
#SBATCH -o %x.o%j
#SBATCH -e %x.e%j

module purge
module load gcc/12.2.0 openmpi/4.1.6
# fftw/3.3.10 was loaded when lmp was built (see ~/sw/lammps-2Aug2023/BUILD.txt)

LMP=/home/chen/sw/lammps-2Aug2023/bin/lmp
echo "LAMMPS binary: $LMP"
echo "nodes: $SLURM_JOB_NODELIST  ranks: $SLURM_NTASKS"
echo "running in.melt (3d Lennard-Jones melt, 32M atoms)"
srun $LMP -in in.melt -var nx 200 -var ny 200 -var nz 200
