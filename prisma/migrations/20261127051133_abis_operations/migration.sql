-- AlterTable
ALTER TABLE "abis_request" ADD COLUMN     "requestedBy" TEXT NOT NULL DEFAULT 'platform',
ADD COLUMN     "result" TEXT,
ALTER COLUMN "rid" DROP NOT NULL,
ALTER COLUMN "batchId" DROP NOT NULL,
ALTER COLUMN "referenceId" DROP NOT NULL,
ALTER COLUMN "referenceUrl" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "abis_request_abisName_operation_createdAt_idx" ON "abis_request"("abisName", "operation", "createdAt");

-- CreateIndex
CREATE INDEX "abis_request_createdAt_idx" ON "abis_request"("createdAt");
