-- CreateTable
CREATE TABLE "key_store" (
    "id" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "referenceId" TEXT NOT NULL DEFAULT '',
    "kind" TEXT NOT NULL,
    "privateKey" TEXT,
    "certificate" TEXT NOT NULL,
    "thumbprint" TEXT NOT NULL,
    "csr" TEXT,
    "validFrom" TIMESTAMP(3) NOT NULL,
    "validTo" TIMESTAMP(3) NOT NULL,
    "retiredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "key_store_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "machine_public_key" (
    "machineName" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "keyIndex" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "machine_public_key_pkey" PRIMARY KEY ("machineName")
);

-- CreateTable
CREATE TABLE "license_key" (
    "keyHash" TEXT NOT NULL,
    "keyHint" TEXT NOT NULL,
    "mispId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'ACTIVE',
    "permissions" TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "license_key_pkey" PRIMARY KEY ("keyHash")
);

-- CreateIndex
CREATE INDEX "key_store_applicationId_referenceId_validFrom_idx" ON "key_store"("applicationId", "referenceId", "validFrom");

-- CreateIndex
CREATE INDEX "key_store_thumbprint_idx" ON "key_store"("thumbprint");

-- CreateIndex
CREATE UNIQUE INDEX "machine_public_key_keyIndex_key" ON "machine_public_key"("keyIndex");

-- CreateIndex
CREATE INDEX "license_key_mispId_idx" ON "license_key"("mispId");
