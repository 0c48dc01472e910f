-- AlterTable
ALTER TABLE "key_store" ADD COLUMN     "signedCertificate" TEXT;

-- AddForeignKey
ALTER TABLE "pms_api_key_request" ADD CONSTRAINT "pms_api_key_request_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "pms_partner"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pms_partner_api_key" ADD CONSTRAINT "pms_partner_api_key_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "pms_partner"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
