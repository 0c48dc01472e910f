-- CreateTable
CREATE TABLE "notification" (
    "id" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "cc" TEXT,
    "subject" TEXT,
    "body" TEXT NOT NULL,
    "attachments" JSONB,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMP(3),
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_template" (
    "code" TEXT NOT NULL,
    "langCode" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "subject" TEXT,
    "body" TEXT NOT NULL,

    CONSTRAINT "notification_template_pkey" PRIMARY KEY ("code","langCode","channel")
);

-- CreateTable
CREATE TABLE "otp_entry" (
    "id" TEXT NOT NULL,
    "otpHash" TEXT,
    "expiresAt" TIMESTAMP(3),
    "failedAttempts" INTEGER NOT NULL DEFAULT 0,
    "frozenUntil" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "otp_entry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notification_to_idx" ON "notification"("to");

-- CreateIndex
CREATE INDEX "notification_status_nextAttemptAt_idx" ON "notification"("status", "nextAttemptAt");
