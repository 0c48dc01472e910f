-- AlterTable
ALTER TABLE "platform_job" ADD COLUMN     "traceParent" TEXT;
