-- Hardening (issue 7): notification bodies are sealed from now on, and the clear bodies of earlier
-- messages (OTPs among them) are dropped with their column rather than kept. Login throttling moves
-- from one row per attempt to one atomic counter per bucket.

-- AlterTable
ALTER TABLE "key_store" ADD COLUMN     "replacesId" TEXT;

-- AlterTable
ALTER TABLE "machine_public_key" ADD COLUMN     "createdBy" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "updatedBy" TEXT;

-- AlterTable
ALTER TABLE "notification" DROP COLUMN "attachments",
DROP COLUMN "body",
ADD COLUMN     "attachmentNames" TEXT[],
ADD COLUMN     "content" TEXT;

-- DropTable
DROP TABLE "auth_login_attempt";

-- CreateTable
CREATE TABLE "auth_throttle" (
    "bucket" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "auth_throttle_pkey" PRIMARY KEY ("bucket")
);

-- CreateIndex
CREATE INDEX "auth_throttle_windowStart_idx" ON "auth_throttle"("windowStart");
