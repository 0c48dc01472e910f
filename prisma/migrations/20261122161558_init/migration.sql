-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "auth_user" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT,
    "mail" TEXT,
    "mobile" TEXT,
    "langCode" TEXT NOT NULL DEFAULT 'eng',
    "passwordHash" TEXT,
    "roles" TEXT[],
    "appIds" TEXT[],
    "rid" TEXT,
    "isLocked" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "auth_user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth_client" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "roles" TEXT[],
    "appIds" TEXT[],
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "auth_client_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth_token" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "subjectType" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'access',
    "appId" TEXT NOT NULL,
    "issuedAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "auth_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth_login_attempt" (
    "id" BIGSERIAL NOT NULL,
    "bucket" TEXT NOT NULL,
    "failed" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auth_login_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth_signing_key" (
    "id" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "active" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "auth_signing_key_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "auth_user_userId_key" ON "auth_user"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "auth_client_clientId_key" ON "auth_client"("clientId");

-- CreateIndex
CREATE INDEX "auth_token_subject_idx" ON "auth_token"("subject");

-- CreateIndex
CREATE INDEX "auth_token_expiresAt_idx" ON "auth_token"("expiresAt");

-- CreateIndex
CREATE INDEX "auth_login_attempt_bucket_createdAt_idx" ON "auth_login_attempt"("bucket", "createdAt");
