#!/bin/bash
#SBATCH --job-name=deseq2_report
#SBATCH --account=genomics
#SBATCH --partition=cpu
#SBATCH --cpus-per-task=4
#SBATCH --mem=16G
#SBATCH --dependency=afterok:1020
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load r/4.3.2
Rscript scripts/deseq2_report.R --counts counts/featurecounts.tsv --design design.tsv --out reports/
