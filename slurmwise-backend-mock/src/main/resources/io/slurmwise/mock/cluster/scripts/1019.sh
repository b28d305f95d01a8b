#!/bin/bash
#SBATCH --job-name=foam_sample
#SBATCH --account=cfd-sim
#SBATCH --partition=cpu
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=8
#SBATCH --mem=16G
#SBATCH --time=00:30:00
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err

source ~/venvs/post/bin/activate
echo "sampling planes z=0.01,0.02,0.05 at t=0.45 from $PWD/VTK"
python scripts/sample_planes.py --case . --time 0.45 --z 0.01 0.02 0.05
