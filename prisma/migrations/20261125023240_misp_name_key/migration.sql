-- AlterTable: each MISP's name as names are compared (subgraphs/partner/misps/names.ts), from its name as kept so far
ALTER TABLE "pms_misp" ADD COLUMN     "nameKey" TEXT;

UPDATE "pms_misp" SET "nameKey" = lower(btrim(regexp_replace(regexp_replace(normalize("organizationName", NFKC), '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]', '', 'g'), '\s+', ' ', 'g')));

-- Names kept so far that are one name by this rule stay apart: the later ones get their id in their key.
UPDATE "pms_misp" AS later SET "nameKey" = later."nameKey" || '#' || later."id"
WHERE EXISTS (SELECT 1 FROM "pms_misp" AS earlier WHERE earlier."nameKey" = later."nameKey" AND earlier."id" < later."id");

ALTER TABLE "pms_misp" ALTER COLUMN "nameKey" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "pms_misp_nameKey_key" ON "pms_misp"("nameKey");
