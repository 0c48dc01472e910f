-- CreateTable
CREATE TABLE "pms_misp" (
    "id" TEXT NOT NULL,
    "organizationName" TEXT NOT NULL,
    "contactNumber" TEXT,
    "emailId" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),

    CONSTRAINT "pms_misp_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pms_policy_group" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),

    CONSTRAINT "pms_policy_group_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pms_policy_group_manager" (
    "policyGroupId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "pms_policy_group_manager_pkey" PRIMARY KEY ("policyGroupId","userId")
);

-- CreateTable
CREATE TABLE "pms_policy" (
    "id" TEXT NOT NULL,
    "policyGroupId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "policies" JSONB NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),

    CONSTRAINT "pms_policy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pms_partner" (
    "id" TEXT NOT NULL,
    "userId" TEXT,
    "organizationName" TEXT NOT NULL,
    "contactNumber" TEXT,
    "emailId" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "policyGroupId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'Active',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),

    CONSTRAINT "pms_partner_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pms_api_key_request" (
    "id" TEXT NOT NULL,
    "partnerId" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "useCaseDescription" TEXT,
    "status" TEXT NOT NULL,
    "decidedBy" TEXT,
    "decidedAt" TIMESTAMP(3),
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "pms_api_key_request_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pms_partner_api_key" (
    "keyHash" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "keyHint" TEXT NOT NULL,
    "partnerId" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'Active',
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),

    CONSTRAINT "pms_partner_api_key_pkey" PRIMARY KEY ("keyHash")
);

-- CreateIndex
CREATE UNIQUE INDEX "pms_misp_organizationName_key" ON "pms_misp"("organizationName");

-- CreateIndex
CREATE INDEX "pms_misp_status_idx" ON "pms_misp"("status");

-- CreateIndex
CREATE INDEX "pms_misp_createdAt_idx" ON "pms_misp"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "pms_policy_group_name_key" ON "pms_policy_group"("name");

-- CreateIndex
CREATE INDEX "pms_policy_group_manager_userId_idx" ON "pms_policy_group_manager"("userId");

-- CreateIndex
CREATE INDEX "pms_policy_createdAt_idx" ON "pms_policy"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "pms_policy_policyGroupId_name_key" ON "pms_policy"("policyGroupId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "pms_partner_userId_key" ON "pms_partner"("userId");

-- CreateIndex
CREATE INDEX "pms_partner_policyGroupId_status_idx" ON "pms_partner"("policyGroupId", "status");

-- CreateIndex
CREATE INDEX "pms_partner_createdAt_idx" ON "pms_partner"("createdAt");

-- CreateIndex
CREATE INDEX "pms_api_key_request_partnerId_idx" ON "pms_api_key_request"("partnerId");

-- CreateIndex
CREATE INDEX "pms_api_key_request_status_createdAt_idx" ON "pms_api_key_request"("status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "pms_partner_api_key_id_key" ON "pms_partner_api_key"("id");

-- CreateIndex
CREATE UNIQUE INDEX "pms_partner_api_key_requestId_key" ON "pms_partner_api_key"("requestId");

-- CreateIndex
CREATE INDEX "pms_partner_api_key_partnerId_idx" ON "pms_partner_api_key"("partnerId");

-- CreateIndex
CREATE INDEX "pms_partner_api_key_policyId_idx" ON "pms_partner_api_key"("policyId");
