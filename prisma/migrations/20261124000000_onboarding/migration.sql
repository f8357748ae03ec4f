-- Consumer onboarding: invitations by email and the person's own submission.

-- AlterEnum
ALTER TYPE "ConsumerCaseStatus" ADD VALUE 'INVITED' AFTER 'PENDING';
ALTER TYPE "ScreeningTrigger" ADD VALUE 'ONBOARDING';

-- CreateEnum
CREATE TYPE "OnboardingDocumentKind" AS ENUM ('IDENTITY_DOCUMENT', 'PROOF_OF_ADDRESS');

-- AlterTable
ALTER TABLE "consumer_cases" ADD COLUMN "address" JSONB;

-- CreateTable
CREATE TABLE "onboarding_invitations" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "consumer_case_id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "email" TEXT NOT NULL,
    "full_name" TEXT NOT NULL,
    "from_address" TEXT NOT NULL,
    "sender_company_name" TEXT NOT NULL,
    "requested_documents" "OnboardingDocumentKind"[],
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "opened_at" TIMESTAMPTZ(3),
    "submitted_at" TIMESTAMPTZ(3),
    "checks_completed_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "draft" JSONB,
    "identity_file_id" UUID,
    "identity_document_type" "DocumentType",
    "proof_of_address_file_id" UUID,
    "message_id" TEXT,
    "invited_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "onboarding_invitations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "onboarding_invitations_identity_document_type_check"
      CHECK ("identity_document_type" IS NULL OR "identity_document_type" IN ('PASSPORT', 'ID_CARD', 'DRIVERS_LICENSE'))
);

-- CreateIndex
CREATE UNIQUE INDEX "onboarding_invitations_token_hash_key" ON "onboarding_invitations"("token_hash");
CREATE INDEX "onboarding_invitations_organization_id_created_at_id_idx" ON "onboarding_invitations"("organization_id", "created_at" DESC, "id" DESC);
CREATE INDEX "onboarding_invitations_consumer_case_id_created_at_idx" ON "onboarding_invitations"("consumer_case_id", "created_at" DESC);
CREATE INDEX "onboarding_invitations_identity_file_id_idx" ON "onboarding_invitations"("identity_file_id");
CREATE INDEX "onboarding_invitations_proof_of_address_file_id_idx" ON "onboarding_invitations"("proof_of_address_file_id");
CREATE INDEX "onboarding_invitations_submitted_at_checks_completed_at_idx" ON "onboarding_invitations"("submitted_at", "checks_completed_at");

-- AddForeignKey
ALTER TABLE "onboarding_invitations" ADD CONSTRAINT "onboarding_invitations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "onboarding_invitations" ADD CONSTRAINT "onboarding_invitations_consumer_case_id_fkey" FOREIGN KEY ("consumer_case_id") REFERENCES "consumer_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "onboarding_invitations" ADD CONSTRAINT "onboarding_invitations_identity_file_id_fkey" FOREIGN KEY ("identity_file_id") REFERENCES "files"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "onboarding_invitations" ADD CONSTRAINT "onboarding_invitations_proof_of_address_file_id_fkey" FOREIGN KEY ("proof_of_address_file_id") REFERENCES "files"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Row-level security: an invitation links only its own organization's case and files.
GRANT SELECT, INSERT, UPDATE, DELETE ON "onboarding_invitations" TO compliance_tenant;
ALTER TABLE "onboarding_invitations" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "onboarding_invitations_tenant_isolation" ON "onboarding_invitations" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND EXISTS (SELECT 1 FROM "consumer_cases" c WHERE c."id" = "consumer_case_id")
    AND ("identity_file_id" IS NULL OR EXISTS (SELECT 1 FROM "files" f WHERE f."id" = "identity_file_id"))
    AND ("proof_of_address_file_id" IS NULL OR EXISTS (SELECT 1 FROM "files" f WHERE f."id" = "proof_of_address_file_id"))
  );
