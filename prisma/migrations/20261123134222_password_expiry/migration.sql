-- AlterTable
ALTER TABLE "auth_user" ADD COLUMN     "passwordChangedAt" TIMESTAMP(3);

-- Passwords set before this column existed count from the account's last change.
UPDATE "auth_user" SET "passwordChangedAt" = "updatedAt" WHERE "passwordHash" IS NOT NULL;
