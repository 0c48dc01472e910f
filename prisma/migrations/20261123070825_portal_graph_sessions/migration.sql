-- Sessions (refresh tokens, revocable logins) and the portal graph's ids and indexes. The trigger that
-- announces revocations is installed by lib/tokens (PL/pgSQL bodies hold semicolons, which the
-- migration runner of the PostgreSQL adapter would split).

-- AlterTable
ALTER TABLE "auth_token" ADD COLUMN     "rotatedAt" TIMESTAMP(3),
ADD COLUMN     "sessionId" TEXT;

-- AlterTable
ALTER TABLE "license_key" ADD COLUMN     "createdBy" TEXT,
ADD COLUMN     "id" TEXT NOT NULL DEFAULT gen_random_uuid()::text;

-- Existing keys got an id above, new ones get theirs from the client (Prisma's uuid()).
ALTER TABLE "license_key" ALTER COLUMN "id" DROP DEFAULT;

-- CreateTable
CREATE TABLE "auth_session" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "subjectType" TEXT NOT NULL,
    "appId" TEXT NOT NULL,
    "clientAddress" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "refreshedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "auth_session_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "auth_session_subject_createdAt_idx" ON "auth_session"("subject", "createdAt");

-- CreateIndex
CREATE INDEX "auth_session_createdAt_idx" ON "auth_session"("createdAt");

-- CreateIndex
CREATE INDEX "auth_token_sessionId_idx" ON "auth_token"("sessionId");

-- CreateIndex
CREATE INDEX "auth_token_revokedAt_idx" ON "auth_token"("revokedAt");

-- CreateIndex
CREATE INDEX "auth_user_createdAt_idx" ON "auth_user"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "license_key_id_key" ON "license_key"("id");

-- CreateIndex
CREATE INDEX "license_key_createdBy_idx" ON "license_key"("createdBy");

-- CreateIndex
CREATE INDEX "license_key_createdAt_idx" ON "license_key"("createdAt");

-- CreateIndex
CREATE INDEX "notification_createdAt_idx" ON "notification"("createdAt");
