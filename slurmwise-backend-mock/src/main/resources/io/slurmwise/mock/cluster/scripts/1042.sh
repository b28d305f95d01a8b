#!/bin/bash
#SBATCH --job-name=vep_annotate
#SBATCH --account=genomics
#SBATCH --partition=long
#SBATCH --cpus-per-task=16
#SBATCH --mem=64G
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

module load ensembl-vep/111.0
vep --cache --offline --dir_cache /scratch/bob/ref/vep_cache --assembly GRCh38 --fork $SLURM_CPUS_PER_TASK \
    -i vcf/NA12878.vcf.gz -o vcf/NA12878.vep.vcf.gz --vcf --compress_output bgzip --everything
