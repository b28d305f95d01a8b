#!/bin/bash
#SBATCH -J multiqc_report
#SBATCH -A genomics
#SBATCH -p cpu
#SBATCH -c 4
#SBATCH --mem=16G
#SBATCH -t 1:00:00
#SBATCH -o logs/%x-%j.out
#SBATCH -e logs/%x-%j.err

source ~/venvs/qc/bin/activate
multiqc -f -c multiqc_config.yaml -o reports qc/ star/
echo "multiqc done: reports/multiqc_report.html"
