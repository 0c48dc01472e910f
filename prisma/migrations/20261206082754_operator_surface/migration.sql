-- CreateTable
CREATE TABLE "platform_marker" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "platform_marker_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "platform_job_runner" (
    "worker" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "instance" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "platform_job_runner_pkey" PRIMARY KEY ("worker")
);
