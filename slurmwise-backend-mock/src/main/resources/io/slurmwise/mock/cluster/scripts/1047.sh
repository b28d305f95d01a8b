#!/bin/bash
#SBATCH --job-name=rnaseq_batch2
#SBATCH --account=genomics
#SBATCH --partition=long
#SBATCH --qos=long
#SBATCH --cpus-per-task=2
#SBATCH --mem=8G
#SBATCH --time=5-00:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err

# Nextflow head job; tasks are submitted as separate SLURM jobs (profile 'delta', queue cpu, qos normal)
module load nextflow/24.04.4 apptainer/1.3.4
export NXF_OPTS="-Xms1g -Xmx6g"
nextflow run nf-core/rnaseq -r 3.14.0 -profile apptainer,delta \
    --input samplesheet_batch2.csv --outdir results \
    --fasta /scratch/bob/ref/GRCh38.fa --gtf /scratch/bob/ref/gencode.v45.annotation.gtf.gz
