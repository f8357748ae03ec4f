-- CreateEnum
CREATE TYPE "BusinessCaseStatus" AS ENUM ('PENDING', 'IN_REVIEW', 'APPROVED', 'REJECTED', 'ARCHIVED');

-- CreateEnum
CREATE TYPE "BusinessEntityType" AS ENUM ('LLC', 'CORPORATION', 'PARTNERSHIP', 'SOLE_PROPRIETORSHIP', 'NON_PROFIT', 'TRUST', 'OTHER');

-- CreateEnum
CREATE TYPE "PartyKind" AS ENUM ('INDIVIDUAL', 'COMPANY');

-- CreateEnum
CREATE TYPE "PartyRole" AS ENUM ('BENEFICIAL_OWNER', 'SHAREHOLDER', 'DIRECTOR', 'OFFICER', 'AUTHORIZED_SIGNATORY', 'CONTROLLING_PERSON');

-- CreateEnum
CREATE TYPE "NoteFormat" AS ENUM ('PLAIN', 'MARKDOWN');

-- AlterTable
ALTER TABLE "business_cases"
    ADD COLUMN "registration_number" TEXT,
    ADD COLUMN "jurisdiction_country" CHAR(2),
    ADD COLUMN "jurisdiction_subdivision" TEXT,
    ADD COLUMN "entity_type" "BusinessEntityType",
    ADD COLUMN "incorporation_date" DATE,
    ADD COLUMN "industry_code" TEXT,
    ADD COLUMN "industry_description" TEXT,
    ADD COLUMN "tax_id" TEXT,
    ADD COLUMN "registered_address" JSONB,
    ADD COLUMN "operating_address" JSONB,
    ADD COLUMN "email" TEXT,
    ADD COLUMN "phone_number" TEXT,
    ADD COLUMN "status" "BusinessCaseStatus" NOT NULL DEFAULT 'PENDING';

-- CreateTable
CREATE TABLE "business_parties" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "business_case_id" UUID NOT NULL,
    "kind" "PartyKind" NOT NULL,
    "name" TEXT NOT NULL,
    "roles" "PartyRole"[],
    "date_of_birth" DATE,
    "country" CHAR(2),
    "registration_number" TEXT,
    "consumer_case_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "business_parties_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "party_holdings" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "business_case_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "owned_id" UUID,
    "percentage" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "party_holdings_pkey" PRIMARY KEY ("id"),
    -- The API refuses these first with a clear message; the database keeps them out regardless.
    CONSTRAINT "party_holdings_percentage_check" CHECK ("percentage" > 0 AND "percentage" <= 100),
    CONSTRAINT "party_holdings_not_self_check" CHECK ("owned_id" IS NULL OR "owned_id" <> "owner_id")
);

-- CreateTable
CREATE TABLE "notes" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "body" TEXT NOT NULL,
    "format" "NoteFormat" NOT NULL DEFAULT 'PLAIN',
    "author" TEXT NOT NULL,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "business_case_id" UUID,
    "consumer_case_id" UUID,
    "task_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "notes_one_attachment_check" CHECK (num_nonnulls("business_case_id", "consumer_case_id", "task_id") = 1)
);

-- CreateIndex
CREATE INDEX "business_cases_organization_id_status_created_at_id_idx" ON "business_cases"("organization_id", "status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "business_cases_organization_id_risk_score_idx" ON "business_cases"("organization_id", "risk_score");

-- CreateIndex
CREATE INDEX "business_cases_organization_id_legal_name_idx" ON "business_cases"("organization_id", "legal_name");

-- CreateIndex
CREATE INDEX "business_cases_legal_name_trgm_idx" ON "business_cases" USING GIN ("legal_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "business_cases_dba_name_trgm_idx" ON "business_cases" USING GIN ("dba_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "business_cases_registration_number_trgm_idx" ON "business_cases" USING GIN ("registration_number" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "business_parties_business_case_id_created_at_idx" ON "business_parties"("business_case_id", "created_at");

-- CreateIndex
CREATE INDEX "business_parties_consumer_case_id_idx" ON "business_parties"("consumer_case_id");

-- CreateIndex
CREATE INDEX "party_holdings_business_case_id_idx" ON "party_holdings"("business_case_id");

-- CreateIndex
CREATE INDEX "party_holdings_owner_id_idx" ON "party_holdings"("owner_id");

-- CreateIndex
CREATE INDEX "party_holdings_owned_id_idx" ON "party_holdings"("owned_id");

-- CreateIndex
CREATE INDEX "notes_organization_id_created_at_id_idx" ON "notes"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notes_business_case_id_created_at_idx" ON "notes"("business_case_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "notes_consumer_case_id_created_at_idx" ON "notes"("consumer_case_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "notes_task_id_created_at_idx" ON "notes"("task_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "notes_body_trgm_idx" ON "notes" USING GIN ("body" gin_trgm_ops);

-- AddForeignKey
ALTER TABLE "business_parties" ADD CONSTRAINT "business_parties_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "business_parties" ADD CONSTRAINT "business_parties_business_case_id_fkey" FOREIGN KEY ("business_case_id") REFERENCES "business_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "business_parties" ADD CONSTRAINT "business_parties_consumer_case_id_fkey" FOREIGN KEY ("consumer_case_id") REFERENCES "consumer_cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "party_holdings" ADD CONSTRAINT "party_holdings_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "party_holdings" ADD CONSTRAINT "party_holdings_business_case_id_fkey" FOREIGN KEY ("business_case_id") REFERENCES "business_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "party_holdings" ADD CONSTRAINT "party_holdings_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "business_parties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "party_holdings" ADD CONSTRAINT "party_holdings_owned_id_fkey" FOREIGN KEY ("owned_id") REFERENCES "business_parties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notes" ADD CONSTRAINT "notes_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notes" ADD CONSTRAINT "notes_business_case_id_fkey" FOREIGN KEY ("business_case_id") REFERENCES "business_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notes" ADD CONSTRAINT "notes_consumer_case_id_fkey" FOREIGN KEY ("consumer_case_id") REFERENCES "consumer_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notes" ADD CONSTRAINT "notes_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Row-level security, as for the other tenant tables (see the first migration).
GRANT SELECT, INSERT, UPDATE, DELETE ON "business_parties", "party_holdings", "notes" TO compliance_tenant;
ALTER TABLE "business_parties" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "party_holdings" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "notes" ENABLE ROW LEVEL SECURITY;

-- A party may only belong to, and link, cases its organization can see.
CREATE POLICY "business_parties_tenant_isolation" ON "business_parties" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND EXISTS (SELECT 1 FROM "business_cases" b WHERE b."id" = "business_case_id")
    AND ("consumer_case_id" IS NULL OR EXISTS (SELECT 1 FROM "consumer_cases" c WHERE c."id" = "consumer_case_id"))
  );

-- A holding joins parties of one case of the organization.
CREATE POLICY "party_holdings_tenant_isolation" ON "party_holdings" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND EXISTS (SELECT 1 FROM "business_parties" p WHERE p."id" = "owner_id" AND p."business_case_id" = "party_holdings"."business_case_id")
    AND ("owned_id" IS NULL OR EXISTS (
      SELECT 1 FROM "business_parties" p WHERE p."id" = "owned_id" AND p."business_case_id" = "party_holdings"."business_case_id" AND p."kind" = 'COMPANY'
    ))
  );

-- A note may only be attached to records its organization can see.
CREATE POLICY "notes_tenant_isolation" ON "notes" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND ("business_case_id" IS NULL OR EXISTS (SELECT 1 FROM "business_cases" b WHERE b."id" = "business_case_id"))
    AND ("consumer_case_id" IS NULL OR EXISTS (SELECT 1 FROM "consumer_cases" c WHERE c."id" = "consumer_case_id"))
    AND ("task_id" IS NULL OR EXISTS (SELECT 1 FROM "tasks" t WHERE t."id" = "task_id"))
  );
