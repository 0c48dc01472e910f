-- CreateTable
CREATE TABLE "regproc_registration" (
    "rid" TEXT NOT NULL,
    "centreId" TEXT NOT NULL,
    "machineId" TEXT NOT NULL,
    "registrationType" TEXT NOT NULL,
    "packetHashValue" TEXT NOT NULL,
    "packetSize" INTEGER NOT NULL,
    "supervisorStatus" TEXT NOT NULL,
    "supervisorComment" TEXT,
    "langCode" TEXT NOT NULL,
    "optionalValues" JSONB,
    "parentRid" TEXT,
    "status" TEXT NOT NULL,
    "stage" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "syncedBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "regproc_registration_pkey" PRIMARY KEY ("rid")
);

-- CreateTable
CREATE TABLE "regproc_transaction" (
    "id" TEXT NOT NULL,
    "rid" TEXT NOT NULL,
    "transactionTypeCode" TEXT NOT NULL,
    "parentTransactionId" TEXT,
    "statusCode" TEXT NOT NULL,
    "subStatusCode" TEXT,
    "statusCommentCode" TEXT,
    "statusComment" TEXT,
    "langCode" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "regproc_transaction_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "regproc_registration_status_createdAt_idx" ON "regproc_registration"("status", "createdAt");

-- CreateIndex
CREATE INDEX "regproc_registration_centreId_createdAt_idx" ON "regproc_registration"("centreId", "createdAt");

-- CreateIndex
CREATE INDEX "regproc_registration_createdAt_idx" ON "regproc_registration"("createdAt");

-- CreateIndex
CREATE INDEX "regproc_transaction_rid_createdAt_idx" ON "regproc_transaction"("rid", "createdAt");

-- AddForeignKey
ALTER TABLE "regproc_transaction" ADD CONSTRAINT "regproc_transaction_rid_fkey" FOREIGN KEY ("rid") REFERENCES "regproc_registration"("rid") ON DELETE CASCADE ON UPDATE CASCADE;
