#!/bin/bash
#SBATCH --job-name=gatk_haplotype
#SBATCH --account=genomics
#SBATCH --partition=cpu
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=16
#SBATCH --mem-per-cpu=4G
#SBATCH --time=2-00:00:00
#SBATCH --output=logs/%x.%j.out
#SBATCH --error=logs/%x.%j.err

module load java/17 gatk/4.5.0.0
conda activate gatk        # harmless here: gatk comes from the module

cd /scratch/bob/wgs
echo "[$(date)] sample NA12878 (60x) -> HaplotypeCaller, intervals: whole genome"
gatk --java-options "-Xmx56g" HaplotypeCaller \
    -R /scratch/bob/ref/GRCh38.fa \
    -I bam/NA12878.dedup.bam \
    -O vcf/NA12878.g.vcf.gz \
    -ERC GVCF --native-pair-hmm-threads 4
