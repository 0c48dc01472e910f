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
