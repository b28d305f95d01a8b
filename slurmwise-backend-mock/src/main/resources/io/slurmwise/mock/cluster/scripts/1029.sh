#!/bin/bash
#SBATCH --job-name=pysam_pileup
#SBATCH --account=genomics
#SBATCH --partition=cpu
#SBATCH --cpus-per-task=4
#SBATCH --mem=16G
#SBATCH --time=2:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

source ~/venvs/pileup/bin/activate
cd /scratch/bob/rnaseq

# the index is (re)built by the dedup job in the same directory
ulimit -c unlimited
python -X faulthandler scripts/allele_counts.py --bam bam/pooled.dedup.bam --sites sites/common_snps.vcf.gz --out counts/pooled_allele_counts.tsv
