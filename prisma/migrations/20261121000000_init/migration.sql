-- Trigram indexes back the free-text `search` filters.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateEnum
CREATE TYPE "ConsumerCaseStatus" AS ENUM ('PENDING', 'ACTIVE', 'IN_REVIEW', 'VERIFIED', 'REJECTED', 'ARCHIVED');

-- CreateEnum
CREATE TYPE "RecommendationLevel" AS ENUM ('APPROVE', 'REVIEW', 'REJECT');

-- CreateEnum
CREATE TYPE "TaskPriority" AS ENUM ('LOW', 'MEDIUM', 'HIGH', 'URGENT');

-- CreateEnum
CREATE TYPE "TaskStatus" AS ENUM ('TODO', 'IN_PROGRESS', 'BLOCKED', 'DONE', 'CANCELLED');

-- CreateTable
CREATE TABLE "organizations" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "label" TEXT,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "permissions" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "consumer_cases" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "first_name" TEXT,
    "last_name" TEXT,
    "phone_number" TEXT,
    "date_of_birth" DATE,
    "nationality" CHAR(2),
    "status" "ConsumerCaseStatus" NOT NULL DEFAULT 'PENDING',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "consumer_cases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "business_cases" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "legal_name" TEXT NOT NULL,
    "dba_name" TEXT,
    "website_url" TEXT,
    "risk_score" DOUBLE PRECISION,
    "recommendation" "RecommendationLevel",
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "business_cases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tasks" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "due_date" TIMESTAMPTZ(3),
    "priority" "TaskPriority" NOT NULL DEFAULT 'MEDIUM',
    "status" "TaskStatus" NOT NULL DEFAULT 'TODO',
    "completed_at" TIMESTAMPTZ(3),
    "business_case_id" UUID,
    "consumer_case_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_assignees" (
    "task_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "assigned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_assignees_pkey" PRIMARY KEY ("task_id","user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "organizations_name_key" ON "organizations"("name");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_organization_id_idx" ON "api_keys"("organization_id");

-- CreateIndex
CREATE INDEX "consumer_cases_organization_id_created_at_id_idx" ON "consumer_cases"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "consumer_cases_organization_id_status_created_at_id_idx" ON "consumer_cases"("organization_id", "status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "consumer_cases_email_trgm_idx" ON "consumer_cases" USING GIN ("email" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "consumer_cases_first_name_trgm_idx" ON "consumer_cases" USING GIN ("first_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "consumer_cases_last_name_trgm_idx" ON "consumer_cases" USING GIN ("last_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "business_cases_organization_id_created_at_id_idx" ON "business_cases"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "tasks_organization_id_created_at_id_idx" ON "tasks"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "tasks_organization_id_status_priority_idx" ON "tasks"("organization_id", "status", "priority");

-- CreateIndex
CREATE INDEX "tasks_consumer_case_id_idx" ON "tasks"("consumer_case_id");

-- CreateIndex
CREATE INDEX "tasks_business_case_id_idx" ON "tasks"("business_case_id");

-- CreateIndex
CREATE INDEX "tasks_title_trgm_idx" ON "tasks" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "task_assignees_organization_id_user_id_idx" ON "task_assignees"("organization_id", "user_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "consumer_cases" ADD CONSTRAINT "consumer_cases_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "business_cases" ADD CONSTRAINT "business_cases_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_business_case_id_fkey" FOREIGN KEY ("business_case_id") REFERENCES "business_cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_consumer_case_id_fkey" FOREIGN KEY ("consumer_case_id") REFERENCES "consumer_cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Row-level security: the database-level backstop of organization scoping.
-- Requests run as the role compliance_tenant (SET LOCAL ROLE inside each
-- transaction, see src/db/tenant.ts) with app.organization_id set to the
-- API key's organization. Rows of other organizations are invisible and
-- cannot be written. The connecting role itself (used for migrations, API
-- key look-up and the operator command) is not subject to these policies.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'compliance_tenant') THEN
    CREATE ROLE compliance_tenant NOLOGIN;
  END IF;
END
$$;
GRANT compliance_tenant TO CURRENT_USER;
GRANT USAGE ON SCHEMA public TO compliance_tenant;
GRANT SELECT, INSERT, UPDATE, DELETE ON "consumer_cases", "business_cases", "tasks", "task_assignees" TO compliance_tenant;

ALTER TABLE "consumer_cases" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "business_cases" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "tasks" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "task_assignees" ENABLE ROW LEVEL SECURITY;

CREATE POLICY "consumer_cases_tenant_isolation" ON "consumer_cases" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid);

CREATE POLICY "business_cases_tenant_isolation" ON "business_cases" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid);

-- A task may only link cases its organization can see (the sub-selects are
-- themselves filtered by the policies above).
CREATE POLICY "tasks_tenant_isolation" ON "tasks" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND ("consumer_case_id" IS NULL OR EXISTS (SELECT 1 FROM "consumer_cases" c WHERE c."id" = "consumer_case_id"))
    AND ("business_case_id" IS NULL OR EXISTS (SELECT 1 FROM "business_cases" b WHERE b."id" = "business_case_id"))
  );

CREATE POLICY "task_assignees_tenant_isolation" ON "task_assignees" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND EXISTS (SELECT 1 FROM "tasks" t WHERE t."id" = "task_id")
  );
