-- AlterTable
ALTER TABLE "regproc_registration" ADD COLUMN     "bioRefId" TEXT,
ADD COLUMN     "nextAttemptAt" TIMESTAMP(3),
ADD COLUMN     "packetKey" TEXT,
ADD COLUMN     "progressAt" TIMESTAMP(3),
ADD COLUMN     "receivedAt" TIMESTAMP(3),
ADD COLUMN     "receivedBy" TEXT;

-- CreateTable
CREATE TABLE "regproc_manual_verification" (
    "id" TEXT NOT NULL,
    "rid" TEXT NOT NULL,
    "matchedRid" TEXT NOT NULL,
    "matchedRefType" TEXT NOT NULL,
    "reasonCode" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "assignedTo" TEXT,
    "assignedAt" TIMESTAMP(3),
    "decidedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "regproc_manual_verification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "regproc_biometric_digest" (
    "digest" TEXT NOT NULL,
    "rid" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "regproc_biometric_digest_pkey" PRIMARY KEY ("digest","rid")
);

-- CreateIndex
CREATE INDEX "regproc_manual_verification_status_createdAt_idx" ON "regproc_manual_verification"("status", "createdAt");

-- CreateIndex
CREATE INDEX "regproc_manual_verification_assignedTo_status_idx" ON "regproc_manual_verification"("assignedTo", "status");

-- CreateIndex
CREATE UNIQUE INDEX "regproc_manual_verification_rid_matchedRid_key" ON "regproc_manual_verification"("rid", "matchedRid");

-- CreateIndex
CREATE INDEX "regproc_biometric_digest_rid_idx" ON "regproc_biometric_digest"("rid");

-- CreateIndex
CREATE INDEX "regproc_registration_stage_status_idx" ON "regproc_registration"("stage", "status");

-- CreateIndex
CREATE INDEX "regproc_registration_status_progressAt_idx" ON "regproc_registration"("status", "progressAt");

-- AddForeignKey
ALTER TABLE "regproc_manual_verification" ADD CONSTRAINT "regproc_manual_verification_rid_fkey" FOREIGN KEY ("rid") REFERENCES "regproc_registration"("rid") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateIndex
CREATE UNIQUE INDEX "regproc_registration_bioRefId_key" ON "regproc_registration"("bioRefId");
