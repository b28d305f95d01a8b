#!/bin/bash
#SBATCH --job-name=cesm_highres
#SBATCH --account=climate-model
#SBATCH --partition=cpu
#SBATCH --nodes=8
#SBATCH --ntasks-per-node=192      # copied from the Derecho config
#SBATCH --mem=240G
#SBATCH --time=2-00:00:00
#SBATCH --output=/scratch/erik/cesm/logs/%x.%j.out
#SBATCH --error=/scratch/erik/cesm/logs/%x.%j.err

module load intel-oneapi-compilers/2023.2.1 intel-oneapi-mpi/2021.10.0 esmf/8.6.0
cd /scratch/erik/cesm/b.e21.BHIST.ne120
./case.submit --no-batch
