-- AlterTable
ALTER TABLE "abis_request" ADD COLUMN     "gallery" JSONB;

-- AlterTable
ALTER TABLE "regproc_registration" ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'CLIENT';

-- Registrations the packet generator made before the column: created received, in one step.
UPDATE "regproc_registration" SET "origin" = 'REQUEST_HANDLER'
  WHERE "registrationType" IN ('ACTIVATED', 'DEACTIVATED', 'RES_REPRINT') AND "receivedAt" = "createdAt";
