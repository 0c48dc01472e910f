-- CreateTable
CREATE TABLE "prereg_application" (
    "id" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "statusCode" TEXT NOT NULL,
    "bookingType" TEXT NOT NULL DEFAULT 'NEW_PREREGISTRATION',
    "demographic" TEXT NOT NULL,
    "demographicHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,
    "updatedAt" TIMESTAMP(3),

    CONSTRAINT "prereg_application_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prereg_document" (
    "id" TEXT NOT NULL,
    "preRegId" TEXT NOT NULL,
    "docCatCode" TEXT NOT NULL,
    "docTypeCode" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "docName" TEXT NOT NULL,
    "docFileFormat" TEXT NOT NULL,
    "refNumber" TEXT,
    "objectKey" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3),

    CONSTRAINT "prereg_document_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prereg_booking" (
    "preRegId" TEXT NOT NULL,
    "centreId" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "fromTime" TEXT NOT NULL,
    "toTime" TEXT NOT NULL,
    "bookedBy" TEXT NOT NULL,
    "bookedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "prereg_booking_pkey" PRIMARY KEY ("preRegId")
);

-- CreateTable
CREATE TABLE "prereg_slot_usage" (
    "centreId" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "fromTime" TEXT NOT NULL,
    "toTime" TEXT NOT NULL,
    "booked" INTEGER NOT NULL,

    CONSTRAINT "prereg_slot_usage_pkey" PRIMARY KEY ("centreId","date","fromTime")
);

-- CreateTable
CREATE TABLE "prereg_consumed" (
    "preRegId" TEXT NOT NULL,
    "reportedBy" TEXT NOT NULL,
    "reportedAt" TIMESTAMP(3) NOT NULL,
    "movedAt" TIMESTAMP(3),
    "createdBy" TEXT,
    "langCode" TEXT,
    "demographic" TEXT,
    "demographicHash" TEXT,
    "centreId" TEXT,
    "date" DATE,
    "fromTime" TEXT,
    "toTime" TEXT,

    CONSTRAINT "prereg_consumed_pkey" PRIMARY KEY ("preRegId")
);

-- CreateTable
CREATE TABLE "prereg_key" (
    "id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "sealedKey" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "prereg_key_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "prereg_application_createdBy_createdAt_idx" ON "prereg_application"("createdBy", "createdAt");

-- CreateIndex
CREATE INDEX "prereg_application_statusCode_idx" ON "prereg_application"("statusCode");

-- CreateIndex
CREATE UNIQUE INDEX "prereg_document_objectKey_key" ON "prereg_document"("objectKey");

-- CreateIndex
CREATE UNIQUE INDEX "prereg_document_preRegId_docCatCode_key" ON "prereg_document"("preRegId", "docCatCode");

-- CreateIndex
CREATE INDEX "prereg_booking_centreId_date_fromTime_idx" ON "prereg_booking"("centreId", "date", "fromTime");

-- CreateIndex
CREATE INDEX "prereg_booking_date_idx" ON "prereg_booking"("date");

-- CreateIndex
CREATE INDEX "prereg_consumed_movedAt_idx" ON "prereg_consumed"("movedAt");

-- CreateIndex
CREATE INDEX "prereg_key_purpose_active_idx" ON "prereg_key"("purpose", "active");

-- AddForeignKey
ALTER TABLE "prereg_document" ADD CONSTRAINT "prereg_document_preRegId_fkey" FOREIGN KEY ("preRegId") REFERENCES "prereg_application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prereg_booking" ADD CONSTRAINT "prereg_booking_preRegId_fkey" FOREIGN KEY ("preRegId") REFERENCES "prereg_application"("id") ON DELETE CASCADE ON UPDATE CASCADE;
