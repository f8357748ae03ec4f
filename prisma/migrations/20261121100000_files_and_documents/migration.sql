-- CreateEnum
CREATE TYPE "FileVisibility" AS ENUM ('PUBLIC', 'PRIVATE');

-- CreateEnum
CREATE TYPE "DocumentType" AS ENUM ('PASSPORT', 'ID_CARD', 'DRIVERS_LICENSE', 'PROOF_OF_ADDRESS', 'BANK_STATEMENT', 'CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_ASSOCIATION', 'SHAREHOLDER_REGISTER', 'OTHER');

-- CreateEnum
CREATE TYPE "DocumentStatus" AS ENUM ('UPLOADED', 'PROCESSING', 'VERIFIED', 'REJECTED');

-- CreateTable
CREATE TABLE "files" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "visibility" "FileVisibility" NOT NULL,
    "file_name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "documents" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "file_id" UUID NOT NULL,
    "type" "DocumentType" NOT NULL,
    "status" "DocumentStatus" NOT NULL DEFAULT 'UPLOADED',
    "consumer_case_id" UUID,
    "business_case_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "files_key_key" ON "files"("key");

-- CreateIndex
CREATE INDEX "files_organization_id_created_at_idx" ON "files"("organization_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "files_file_name_trgm_idx" ON "files" USING GIN ("file_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "documents_organization_id_created_at_id_idx" ON "documents"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "documents_file_id_idx" ON "documents"("file_id");

-- CreateIndex
CREATE INDEX "documents_consumer_case_id_idx" ON "documents"("consumer_case_id");

-- CreateIndex
CREATE INDEX "documents_business_case_id_idx" ON "documents"("business_case_id");

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_consumer_case_id_fkey" FOREIGN KEY ("consumer_case_id") REFERENCES "consumer_cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_business_case_id_fkey" FOREIGN KEY ("business_case_id") REFERENCES "business_cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Row-level security, as for the other tenant tables (see the first migration).
GRANT SELECT, INSERT, UPDATE, DELETE ON "files", "documents" TO compliance_tenant;
ALTER TABLE "files" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "documents" ENABLE ROW LEVEL SECURITY;

CREATE POLICY "files_tenant_isolation" ON "files" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid);

-- A document may only point at a file and cases its organization can see.
CREATE POLICY "documents_tenant_isolation" ON "documents" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND EXISTS (SELECT 1 FROM "files" f WHERE f."id" = "file_id")
    AND ("consumer_case_id" IS NULL OR EXISTS (SELECT 1 FROM "consumer_cases" c WHERE c."id" = "consumer_case_id"))
    AND ("business_case_id" IS NULL OR EXISTS (SELECT 1 FROM "business_cases" b WHERE b."id" = "business_case_id"))
  );
