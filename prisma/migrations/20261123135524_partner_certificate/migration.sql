-- AlterTable
ALTER TABLE "pms_partner" ADD COLUMN     "certificateId" TEXT,
ADD COLUMN     "certificateUploadedAt" TIMESTAMP(3),
ADD COLUMN     "signedCertificate" TEXT;
