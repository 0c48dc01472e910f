-- CreateTable
CREATE TABLE "idrepo_key" (
    "id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "sealedKey" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "idrepo_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idrepo_identity" (
    "id" TEXT NOT NULL,
    "uinHash" TEXT NOT NULL,
    "uinEncrypted" TEXT NOT NULL,
    "registrationId" TEXT NOT NULL,
    "biometricReferenceId" TEXT,
    "status" TEXT NOT NULL,
    "identityData" TEXT NOT NULL,
    "identityHash" TEXT NOT NULL,
    "schemaVersion" DOUBLE PRECISION NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),

    CONSTRAINT "idrepo_identity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idrepo_identity_registration" (
    "registrationId" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "idrepo_identity_registration_pkey" PRIMARY KEY ("registrationId")
);

-- CreateTable
CREATE TABLE "idrepo_identity_file" (
    "id" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "objectKey" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "idrepo_identity_file_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idrepo_read_audit" (
    "id" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "readBy" TEXT NOT NULL,
    "roles" TEXT[],
    "parts" TEXT[],
    "lookup" TEXT NOT NULL,
    "readAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "idrepo_read_audit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idrepo_uin_pool" (
    "uinHash" TEXT NOT NULL,
    "uinEncrypted" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "idrepo_uin_pool_pkey" PRIMARY KEY ("uinHash")
);

-- CreateTable
CREATE TABLE "idrepo_vid" (
    "id" TEXT NOT NULL,
    "vidHash" TEXT NOT NULL,
    "vidEncrypted" TEXT NOT NULL,
    "identityId" TEXT NOT NULL,
    "vidType" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "transactionsLeft" INTEGER,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),

    CONSTRAINT "idrepo_vid_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idrepo_auth_type_lock" (
    "identityId" TEXT NOT NULL,
    "authType" TEXT NOT NULL,
    "locked" BOOLEAN NOT NULL,
    "updatedBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "idrepo_auth_type_lock_pkey" PRIMARY KEY ("identityId","authType")
);

-- CreateIndex
CREATE INDEX "idrepo_key_purpose_active_idx" ON "idrepo_key"("purpose", "active");

-- CreateIndex
CREATE UNIQUE INDEX "idrepo_identity_uinHash_key" ON "idrepo_identity"("uinHash");

-- CreateIndex
CREATE INDEX "idrepo_identity_createdAt_idx" ON "idrepo_identity"("createdAt");

-- CreateIndex
CREATE INDEX "idrepo_identity_status_idx" ON "idrepo_identity"("status");

-- CreateIndex
CREATE INDEX "idrepo_identity_registration_identityId_idx" ON "idrepo_identity_registration"("identityId");

-- CreateIndex
CREATE UNIQUE INDEX "idrepo_identity_file_objectKey_key" ON "idrepo_identity_file"("objectKey");

-- CreateIndex
CREATE UNIQUE INDEX "idrepo_identity_file_identityId_category_key" ON "idrepo_identity_file"("identityId", "category");

-- CreateIndex
CREATE INDEX "idrepo_read_audit_identityId_readAt_idx" ON "idrepo_read_audit"("identityId", "readAt");

-- CreateIndex
CREATE INDEX "idrepo_read_audit_readAt_idx" ON "idrepo_read_audit"("readAt");

-- CreateIndex
CREATE INDEX "idrepo_uin_pool_createdAt_idx" ON "idrepo_uin_pool"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "idrepo_vid_vidHash_key" ON "idrepo_vid"("vidHash");

-- CreateIndex
CREATE INDEX "idrepo_vid_identityId_vidType_status_idx" ON "idrepo_vid"("identityId", "vidType", "status");

-- AddForeignKey
ALTER TABLE "idrepo_identity_registration" ADD CONSTRAINT "idrepo_identity_registration_identityId_fkey" FOREIGN KEY ("identityId") REFERENCES "idrepo_identity"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idrepo_identity_file" ADD CONSTRAINT "idrepo_identity_file_identityId_fkey" FOREIGN KEY ("identityId") REFERENCES "idrepo_identity"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
