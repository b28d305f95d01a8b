#!/bin/bash
#SBATCH -J star_align
#SBATCH -A genomics
#SBATCH -p cpu
#SBATCH -N 1
#SBATCH -n 1
#SBATCH -c 32
#SBATCH --mem 64G
#SBATCH -t 6:00:00
#SBATCH -o logs/%x_%j.out
#SBATCH -e logs/%x_%j.err

module load star/2.7.11a

cd /scratch/bob/rnaseq
for s in S01 S02 S03 S04; do
    echo "== $s =="
    STAR --runThreadN $SLURM_CPUS_PER_TASK \
         --genomeDir /scratch/bob/ref/GRCh38_star_2.7.11a \
         --readFilesIn trimmed/${s}_R1_val_1.fq.gz trimmed/${s}_R2_val_2.fq.gz \
         --readFilesCommand zcat \
         --outSAMtype BAM SortedByCoordinate \
         --limitBAMsortRAM 30000000000 \
         --outFileNamePrefix star/${s}_
done
echo "all 4 samples aligned"
