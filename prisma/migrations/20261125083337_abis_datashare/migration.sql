-- CreateTable
CREATE TABLE "abis_datashare" (
    "shareKey" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "rid" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "transactionsLeft" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "abis_datashare_pkey" PRIMARY KEY ("shareKey")
);

-- CreateIndex
CREATE INDEX "abis_datashare_expiresAt_idx" ON "abis_datashare"("expiresAt");

-- CreateIndex
CREATE INDEX "abis_datashare_rid_idx" ON "abis_datashare"("rid");
-- CreateTable
CREATE TABLE "abis_request" (
    "id" TEXT NOT NULL,
    "abisName" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "rid" TEXT NOT NULL,
    "batchId" TEXT NOT NULL,
    "referenceId" TEXT NOT NULL,
    "referenceUrl" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "returnValue" TEXT,
    "failureReason" TEXT,
    "candidates" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "sentAt" TIMESTAMP(3),
    "answeredAt" TIMESTAMP(3),

    CONSTRAINT "abis_request_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "abis_request_rid_idx" ON "abis_request"("rid");

-- CreateIndex
CREATE INDEX "abis_request_batchId_idx" ON "abis_request"("batchId");

-- CreateIndex
CREATE INDEX "abis_request_status_sentAt_idx" ON "abis_request"("status", "sentAt");
