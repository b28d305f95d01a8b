#!/bin/bash
#SBATCH -J mesh_decompose
#SBATCH -A cfd-sim
#SBATCH -p cpu
#SBATCH -c 16
#SBATCH --mem=32G
#SBATCH -t 1:00:00
#SBATCH -o %x.o%j
#SBATCH -e %x.e%j

module load gcc/12.2.0 openmpi/4.1.6 openfoam/v2306
echo "$(date) mesh_decompose on $(hostname)"
echo "Decomposing case $PWD into 512 subdomains (scotch)"
ls -l tools/decompose.sh system/decomposeParDict
./tools/decompose.sh -n 512 -method scotch
