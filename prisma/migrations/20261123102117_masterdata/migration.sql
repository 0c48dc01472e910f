-- CreateExtension: pg_trgm serves substring search (holiday names) by a GIN index
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateTable
CREATE TABLE "md_language" (
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "family" TEXT,
    "nativeName" TEXT,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_language_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "md_location_hierarchy_level" (
    "level" INTEGER NOT NULL,
    "langCode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_location_hierarchy_level_pkey" PRIMARY KEY ("level","langCode")
);

-- CreateTable
CREATE TABLE "md_location" (
    "code" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hierarchyLevel" INTEGER NOT NULL,
    "hierarchyName" TEXT NOT NULL,
    "parentCode" TEXT,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_location_pkey" PRIMARY KEY ("code","langCode")
);

-- CreateTable
CREATE TABLE "md_zone" (
    "code" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hierarchyLevel" INTEGER NOT NULL,
    "hierarchyName" TEXT NOT NULL,
    "parentZoneCode" TEXT,
    "path" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_zone_pkey" PRIMARY KEY ("code","langCode")
);

-- CreateTable
CREATE TABLE "md_zone_user" (
    "userId" TEXT NOT NULL,
    "zoneCode" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_zone_user_pkey" PRIMARY KEY ("userId","zoneCode")
);

-- CreateTable
CREATE TABLE "md_id_schema" (
    "id" TEXT NOT NULL,
    "idVersion" INTEGER NOT NULL DEFAULT 0,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "schemaVersion" DOUBLE PRECISION NOT NULL,
    "schema" JSONB NOT NULL,
    "schemaJson" TEXT NOT NULL,
    "effectiveFrom" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_id_schema_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "md_document_category" (
    "code" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_document_category_pkey" PRIMARY KEY ("code","langCode")
);

-- CreateTable
CREATE TABLE "md_document_type" (
    "code" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_document_type_pkey" PRIMARY KEY ("code","langCode")
);

-- CreateTable
CREATE TABLE "md_valid_document" (
    "docCategoryCode" TEXT NOT NULL,
    "docTypeCode" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_valid_document_pkey" PRIMARY KEY ("docCategoryCode","docTypeCode")
);

-- CreateTable
CREATE TABLE "md_applicant_type_rule" (
    "individualTypeCode" TEXT NOT NULL,
    "ageGroupTypeCode" TEXT NOT NULL,
    "genderTypeCode" TEXT NOT NULL,
    "applicantTypeCode" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_applicant_type_rule_pkey" PRIMARY KEY ("individualTypeCode","ageGroupTypeCode","genderTypeCode")
);

-- CreateTable
CREATE TABLE "md_applicant_valid_document" (
    "applicantTypeCode" TEXT NOT NULL,
    "docCategoryCode" TEXT NOT NULL,
    "docTypeCode" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_applicant_valid_document_pkey" PRIMARY KEY ("applicantTypeCode","docCategoryCode","docTypeCode")
);

-- CreateTable
CREATE TABLE "md_holiday" (
    "id" SERIAL NOT NULL,
    "langCode" TEXT NOT NULL,
    "locationCode" TEXT NOT NULL,
    "holidayDate" DATE NOT NULL,
    "holidayName" TEXT NOT NULL,
    "holidayDesc" TEXT,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_holiday_pkey" PRIMARY KEY ("id","langCode")
);

-- CreateTable
CREATE TABLE "md_device_type" (
    "code" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_device_type_pkey" PRIMARY KEY ("code","langCode")
);

-- CreateTable
CREATE TABLE "md_device_spec" (
    "id" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "deviceTypeCode" TEXT NOT NULL,
    "minDriverVersion" TEXT,
    "description" TEXT,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_device_spec_pkey" PRIMARY KEY ("id","langCode")
);

-- CreateTable
CREATE TABLE "md_device" (
    "id" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "serialNum" TEXT NOT NULL,
    "deviceSpecId" TEXT NOT NULL,
    "macAddress" TEXT NOT NULL,
    "ipAddress" TEXT,
    "zoneCode" TEXT NOT NULL,
    "regCenterId" TEXT,
    "validityDateTime" TIMESTAMP(3),
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_device_pkey" PRIMARY KEY ("id","langCode")
);

-- CreateTable
CREATE TABLE "md_registration_center" (
    "id" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "centerTypeCode" TEXT NOT NULL,
    "addressLine1" TEXT,
    "addressLine2" TEXT,
    "addressLine3" TEXT,
    "latitude" TEXT,
    "longitude" TEXT,
    "locationCode" TEXT NOT NULL,
    "holidayLocationCode" TEXT NOT NULL,
    "contactPhone" TEXT,
    "contactPerson" TEXT,
    "numberOfKiosks" INTEGER NOT NULL DEFAULT 1,
    "workingHours" TEXT,
    "perKioskProcessTime" TEXT,
    "centerStartTime" TEXT,
    "centerEndTime" TEXT,
    "lunchStartTime" TEXT,
    "lunchEndTime" TEXT,
    "timeZone" TEXT,
    "zoneCode" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_registration_center_pkey" PRIMARY KEY ("id","langCode")
);

-- CreateTable
CREATE TABLE "md_reg_center_working_day" (
    "regCenterId" TEXT NOT NULL,
    "dayCode" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "isWorking" BOOLEAN NOT NULL DEFAULT true,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_reg_center_working_day_pkey" PRIMARY KEY ("regCenterId","dayCode","langCode")
);

-- CreateTable
CREATE TABLE "md_reg_center_user" (
    "regCenterId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_reg_center_user_pkey" PRIMARY KEY ("regCenterId","userId")
);

-- CreateTable
CREATE TABLE "md_machine" (
    "id" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "serialNum" TEXT,
    "macAddress" TEXT,
    "ipAddress" TEXT,
    "machineSpecId" TEXT,
    "regCenterId" TEXT,
    "zoneCode" TEXT NOT NULL,
    "validityDateTime" TIMESTAMP(3),
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),
    "isDeleted" BOOLEAN NOT NULL DEFAULT false,
    "deletedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "md_machine_pkey" PRIMARY KEY ("id","langCode")
);

-- CreateIndex
CREATE INDEX "md_language_changedAt_idx" ON "md_language"("changedAt");

-- CreateIndex
CREATE INDEX "md_location_hierarchy_level_changedAt_idx" ON "md_location_hierarchy_level"("changedAt");

-- CreateIndex
CREATE INDEX "md_location_parentCode_idx" ON "md_location"("parentCode");

-- CreateIndex
CREATE INDEX "md_location_changedAt_idx" ON "md_location"("changedAt");

-- CreateIndex
CREATE INDEX "md_zone_path_idx" ON "md_zone"("path");

-- CreateIndex
CREATE INDEX "md_zone_changedAt_idx" ON "md_zone"("changedAt");

-- CreateIndex
CREATE INDEX "md_zone_user_zoneCode_idx" ON "md_zone_user"("zoneCode");

-- CreateIndex
CREATE INDEX "md_id_schema_status_idVersion_idx" ON "md_id_schema"("status", "idVersion");

-- CreateIndex
CREATE INDEX "md_id_schema_changedAt_idx" ON "md_id_schema"("changedAt");

-- CreateIndex
CREATE INDEX "md_document_category_langCode_name_idx" ON "md_document_category"("langCode", "name");

-- CreateIndex
CREATE INDEX "md_document_category_changedAt_idx" ON "md_document_category"("changedAt");

-- CreateIndex
CREATE INDEX "md_document_type_langCode_name_idx" ON "md_document_type"("langCode", "name");

-- CreateIndex
CREATE INDEX "md_document_type_changedAt_idx" ON "md_document_type"("changedAt");

-- CreateIndex
CREATE INDEX "md_valid_document_docTypeCode_idx" ON "md_valid_document"("docTypeCode");

-- CreateIndex
CREATE INDEX "md_valid_document_changedAt_idx" ON "md_valid_document"("changedAt");

-- CreateIndex
CREATE INDEX "md_applicant_type_rule_applicantTypeCode_idx" ON "md_applicant_type_rule"("applicantTypeCode");

-- CreateIndex
CREATE INDEX "md_applicant_valid_document_changedAt_idx" ON "md_applicant_valid_document"("changedAt");

-- CreateIndex
CREATE INDEX "md_holiday_langCode_holidayDate_idx" ON "md_holiday"("langCode", "holidayDate");

-- CreateIndex
CREATE INDEX "md_holiday_langCode_holidayName_idx" ON "md_holiday"("langCode", "holidayName");

-- CreateIndex
CREATE INDEX "md_holiday_name_trgm" ON "md_holiday" USING GIN ("holidayName" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "md_holiday_langCode_updatedAt_idx" ON "md_holiday"("langCode", "updatedAt");

-- CreateIndex
CREATE INDEX "md_holiday_langCode_createdAt_idx" ON "md_holiday"("langCode", "createdAt");

-- CreateIndex
CREATE INDEX "md_holiday_changedAt_idx" ON "md_holiday"("changedAt");

-- CreateIndex
CREATE UNIQUE INDEX "md_holiday_locationCode_holidayDate_holidayName_langCode_key" ON "md_holiday"("locationCode", "holidayDate", "holidayName", "langCode");

-- CreateIndex
CREATE INDEX "md_device_type_changedAt_idx" ON "md_device_type"("changedAt");

-- CreateIndex
CREATE INDEX "md_device_spec_deviceTypeCode_idx" ON "md_device_spec"("deviceTypeCode");

-- CreateIndex
CREATE INDEX "md_device_spec_changedAt_idx" ON "md_device_spec"("changedAt");

-- CreateIndex
CREATE INDEX "md_device_deviceSpecId_idx" ON "md_device"("deviceSpecId");

-- CreateIndex
CREATE INDEX "md_device_zoneCode_idx" ON "md_device"("zoneCode");

-- CreateIndex
CREATE INDEX "md_device_regCenterId_idx" ON "md_device"("regCenterId");

-- CreateIndex
CREATE INDEX "md_device_changedAt_idx" ON "md_device"("changedAt");

-- CreateIndex
CREATE INDEX "md_registration_center_zoneCode_idx" ON "md_registration_center"("zoneCode");

-- CreateIndex
CREATE INDEX "md_registration_center_changedAt_idx" ON "md_registration_center"("changedAt");

-- CreateIndex
CREATE INDEX "md_reg_center_working_day_changedAt_idx" ON "md_reg_center_working_day"("changedAt");

-- CreateIndex
CREATE INDEX "md_reg_center_user_userId_idx" ON "md_reg_center_user"("userId");

-- CreateIndex
CREATE INDEX "md_reg_center_user_changedAt_idx" ON "md_reg_center_user"("changedAt");

-- CreateIndex
CREATE INDEX "md_machine_name_idx" ON "md_machine"("name");

-- CreateIndex
CREATE INDEX "md_machine_regCenterId_idx" ON "md_machine"("regCenterId");

-- CreateIndex
CREATE INDEX "md_machine_changedAt_idx" ON "md_machine"("changedAt");
