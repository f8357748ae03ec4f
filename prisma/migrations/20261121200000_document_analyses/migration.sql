-- CreateEnum
CREATE TYPE "AnalysisKind" AS ENUM ('TEXT', 'DOCUMENT', 'IDENTITY');

-- CreateEnum
CREATE TYPE "AnalysisStatus" AS ENUM ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED');

-- CreateTable
CREATE TABLE "document_analyses" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "file_id" UUID NOT NULL,
    "kind" "AnalysisKind" NOT NULL,
    "status" "AnalysisStatus" NOT NULL DEFAULT 'QUEUED',
    "engine" TEXT,
    "page_count" INTEGER,
    "block_count" INTEGER,
    "table_count" INTEGER,
    "form_count" INTEGER,
    "text_content" TEXT,
    "result" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "document_analyses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "document_analyses_organization_id_created_at_idx" ON "document_analyses"("organization_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "document_analyses_file_id_created_at_idx" ON "document_analyses"("file_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "document_analyses" ADD CONSTRAINT "document_analyses_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_analyses" ADD CONSTRAINT "document_analyses_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Row-level security, as for the other tenant tables.
GRANT SELECT, INSERT, UPDATE, DELETE ON "document_analyses" TO compliance_tenant;
ALTER TABLE "document_analyses" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "document_analyses_tenant_isolation" ON "document_analyses" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND EXISTS (SELECT 1 FROM "files" f WHERE f."id" = "file_id")
  );
