-- Issue 19: no resident's address in clear in the notification table.
-- Recipients (to, cc) are now sealed with the body (column "content", the key store's PLATFORM/NOTIFY key)
-- and dropped with it once delivered or after PLATFORM_OUTBOX_RETENTION_HOURS. The outbox is searched by
-- "recipientKeys", an HMAC of each normalised `to` address under a key derived from the master key.
-- Existing rows are purged of their addresses rather than sealed at start-up: SQL can neither compute the
-- HMAC nor seal, and the rows hold at most PLATFORM_OUTBOX_RETENTION_HOURS of OTPs worth keeping. Their
-- bodies stay (sealed) until the retention sweep drops them, but they are no longer found by address (an
-- OTP sent just before the upgrade is asked for again). PostgreSQL keeps dropped values in the table's
-- pages until they are rewritten: run VACUUM FULL on notification after the upgrade to wipe them from disk.

-- DropIndex
DROP INDEX "notification_to_idx";

-- AlterTable
ALTER TABLE "notification" DROP COLUMN "cc",
DROP COLUMN "to",
ADD COLUMN     "recipientKeys" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "notification_recipientKeys_idx" ON "notification" USING GIN ("recipientKeys");
