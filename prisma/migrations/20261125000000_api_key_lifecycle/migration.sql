-- API key expiry and rotation (the old key stays valid for a grace period).

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "expires_at" TIMESTAMPTZ(3),
ADD COLUMN "rotated_from_id" UUID;

-- CreateIndex
CREATE INDEX "api_keys_rotated_from_id_idx" ON "api_keys"("rotated_from_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_rotated_from_id_fkey" FOREIGN KEY ("rotated_from_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
