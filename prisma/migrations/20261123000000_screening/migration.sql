-- CreateEnum
CREATE TYPE "ScreeningTarget" AS ENUM ('AD_HOC', 'CONSUMER_CASE', 'BUSINESS_CASE', 'BUSINESS_PARTY');
CREATE TYPE "ScreeningSubjectKind" AS ENUM ('PERSON', 'ORGANIZATION');
CREATE TYPE "ScreeningTrigger" AS ENUM ('MANUAL', 'LIST_UPDATE');
CREATE TYPE "ScreeningOutcome" AS ENUM ('NO_HITS', 'PENDING_REVIEW', 'CONFIRMED_MATCH', 'CLEARED');
CREATE TYPE "MediaCheckStatus" AS ENUM ('NOT_REQUESTED', 'CHECKED', 'FAILED');
CREATE TYPE "HitStatus" AS ENUM ('PENDING', 'TRUE_MATCH', 'FALSE_POSITIVE');
CREATE TYPE "RiskLevel" AS ENUM ('LOW', 'MEDIUM', 'HIGH', 'PROHIBITED');

-- CreateTable
CREATE TABLE "screening_settings" (
    "organization_id" UUID NOT NULL,
    "threshold" DOUBLE PRECISION,
    "adverse_media" BOOLEAN NOT NULL DEFAULT true,
    "updated_by" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "screening_settings_pkey" PRIMARY KEY ("organization_id"),
    CONSTRAINT "screening_settings_threshold_range" CHECK ("threshold" IS NULL OR ("threshold" > 0 AND "threshold" <= 1))
);

CREATE TABLE "screenings" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "target" "ScreeningTarget" NOT NULL,
    "subject_key" TEXT NOT NULL,
    "consumer_case_id" UUID,
    "business_case_id" UUID,
    "business_party_id" UUID,
    "name" TEXT NOT NULL,
    "aliases" TEXT[],
    "kind" "ScreeningSubjectKind" NOT NULL,
    "birth_date" TEXT,
    "countries" TEXT[],
    "identifiers" TEXT[],
    "threshold" DOUBLE PRECISION NOT NULL,
    "algorithm_version" TEXT NOT NULL,
    "list_versions" JSONB NOT NULL,
    "trigger" "ScreeningTrigger" NOT NULL DEFAULT 'MANUAL',
    "requested_by" TEXT NOT NULL,
    "outcome" "ScreeningOutcome" NOT NULL,
    "hit_count" INTEGER NOT NULL,
    "media_status" "MediaCheckStatus" NOT NULL DEFAULT 'NOT_REQUESTED',
    "media_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "screenings_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "screening_hits" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "screening_id" UUID NOT NULL,
    "watchlist_entity_id" UUID NOT NULL,
    "source_id" TEXT NOT NULL,
    "list_version" UUID NOT NULL,
    "external_id" TEXT NOT NULL,
    "entity_fingerprint" CHAR(64) NOT NULL,
    "entity_kind" TEXT NOT NULL,
    "primary_name" TEXT NOT NULL,
    "topics" TEXT[],
    "programs" TEXT[],
    "score" DOUBLE PRECISION NOT NULL,
    "algorithm_version" TEXT NOT NULL,
    "explanation" JSONB NOT NULL,
    "status" "HitStatus" NOT NULL DEFAULT 'PENDING',
    "decision_id" UUID,

    CONSTRAINT "screening_hits_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "screening_hits_score_range" CHECK ("score" >= 0 AND "score" <= 1)
);

CREATE TABLE "hit_decisions" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "subject_key" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "entity_fingerprint" CHAR(64) NOT NULL,
    "decision" "HitStatus" NOT NULL,
    "reason" TEXT NOT NULL,
    "decided_by" TEXT NOT NULL,
    "hit_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "hit_decisions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "hit_decisions_is_a_decision" CHECK ("decision" <> 'PENDING')
);

CREATE TABLE "adverse_media_findings" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "screening_id" UUID NOT NULL,
    "provider_id" TEXT NOT NULL,
    "article_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "summary" TEXT,
    "url" TEXT,
    "source" TEXT,
    "published_at" TIMESTAMPTZ(3),
    "matched_text" TEXT NOT NULL,
    "name_score" DOUBLE PRECISION NOT NULL,
    "categories" JSONB NOT NULL,
    "relevance" DOUBLE PRECISION NOT NULL,
    "classifier_version" TEXT NOT NULL,

    CONSTRAINT "adverse_media_findings_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "risk_assessments" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "consumer_case_id" UUID,
    "business_case_id" UUID,
    "risk_score" INTEGER NOT NULL,
    "level" "RiskLevel" NOT NULL,
    "factors" JSONB NOT NULL,
    "edd" JSONB NOT NULL,
    "inputs" JSONB NOT NULL,
    "model_version" TEXT NOT NULL,
    "fatf_list_date" TEXT,
    "requested_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "risk_assessments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "risk_assessments_score_range" CHECK ("risk_score" BETWEEN 0 AND 100),
    CONSTRAINT "risk_assessments_one_case" CHECK (("consumer_case_id" IS NULL) <> ("business_case_id" IS NULL))
);

-- CreateIndex
CREATE INDEX "screenings_organization_id_created_at_id_idx" ON "screenings"("organization_id", "created_at" DESC, "id" DESC);
CREATE INDEX "screenings_organization_id_subject_key_created_at_idx" ON "screenings"("organization_id", "subject_key", "created_at" DESC);
CREATE INDEX "screenings_organization_id_outcome_created_at_idx" ON "screenings"("organization_id", "outcome", "created_at" DESC);
CREATE INDEX "screenings_consumer_case_id_created_at_idx" ON "screenings"("consumer_case_id", "created_at" DESC);
CREATE INDEX "screenings_business_case_id_created_at_idx" ON "screenings"("business_case_id", "created_at" DESC);
CREATE INDEX "screenings_business_party_id_created_at_idx" ON "screenings"("business_party_id", "created_at" DESC);
CREATE INDEX "screening_hits_screening_id_score_idx" ON "screening_hits"("screening_id", "score" DESC);
CREATE INDEX "screening_hits_organization_id_status_idx" ON "screening_hits"("organization_id", "status");
CREATE INDEX "hit_decisions_organization_id_subject_key_source_id_externa_idx" ON "hit_decisions"("organization_id", "subject_key", "source_id", "external_id", "created_at" DESC);
CREATE INDEX "hit_decisions_hit_id_idx" ON "hit_decisions"("hit_id");
CREATE INDEX "adverse_media_findings_screening_id_relevance_idx" ON "adverse_media_findings"("screening_id", "relevance" DESC);
CREATE INDEX "risk_assessments_consumer_case_id_created_at_idx" ON "risk_assessments"("consumer_case_id", "created_at" DESC);
CREATE INDEX "risk_assessments_business_case_id_created_at_idx" ON "risk_assessments"("business_case_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "screening_settings" ADD CONSTRAINT "screening_settings_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "screenings" ADD CONSTRAINT "screenings_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "screenings" ADD CONSTRAINT "screenings_consumer_case_id_fkey" FOREIGN KEY ("consumer_case_id") REFERENCES "consumer_cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "screenings" ADD CONSTRAINT "screenings_business_case_id_fkey" FOREIGN KEY ("business_case_id") REFERENCES "business_cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "screenings" ADD CONSTRAINT "screenings_business_party_id_fkey" FOREIGN KEY ("business_party_id") REFERENCES "business_parties"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "screening_hits" ADD CONSTRAINT "screening_hits_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "screening_hits" ADD CONSTRAINT "screening_hits_screening_id_fkey" FOREIGN KEY ("screening_id") REFERENCES "screenings"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "screening_hits" ADD CONSTRAINT "screening_hits_watchlist_entity_id_fkey" FOREIGN KEY ("watchlist_entity_id") REFERENCES "watchlist_entities"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "screening_hits" ADD CONSTRAINT "screening_hits_decision_id_fkey" FOREIGN KEY ("decision_id") REFERENCES "hit_decisions"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "hit_decisions" ADD CONSTRAINT "hit_decisions_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "hit_decisions" ADD CONSTRAINT "hit_decisions_hit_id_fkey" FOREIGN KEY ("hit_id") REFERENCES "screening_hits"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "adverse_media_findings" ADD CONSTRAINT "adverse_media_findings_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "adverse_media_findings" ADD CONSTRAINT "adverse_media_findings_screening_id_fkey" FOREIGN KEY ("screening_id") REFERENCES "screenings"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "risk_assessments" ADD CONSTRAINT "risk_assessments_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "risk_assessments" ADD CONSTRAINT "risk_assessments_consumer_case_id_fkey" FOREIGN KEY ("consumer_case_id") REFERENCES "consumer_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "risk_assessments" ADD CONSTRAINT "risk_assessments_business_case_id_fkey" FOREIGN KEY ("business_case_id") REFERENCES "business_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Row-level security, as for the other tenant tables (see the first migration).
GRANT SELECT, INSERT, UPDATE, DELETE ON "screening_settings", "screenings", "screening_hits", "adverse_media_findings", "risk_assessments" TO compliance_tenant;
-- Decisions are an audit record: written once, never changed or removed through the API.
GRANT SELECT, INSERT ON "hit_decisions" TO compliance_tenant;
ALTER TABLE "screening_settings" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "screenings" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "screening_hits" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "hit_decisions" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "adverse_media_findings" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "risk_assessments" ENABLE ROW LEVEL SECURITY;

CREATE POLICY "screening_settings_tenant_isolation" ON "screening_settings" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid);

-- A screening may only link cases and parties its organization can see.
CREATE POLICY "screenings_tenant_isolation" ON "screenings" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND ("consumer_case_id" IS NULL OR EXISTS (SELECT 1 FROM "consumer_cases" c WHERE c."id" = "consumer_case_id"))
    AND ("business_case_id" IS NULL OR EXISTS (SELECT 1 FROM "business_cases" b WHERE b."id" = "business_case_id"))
    AND ("business_party_id" IS NULL OR EXISTS (SELECT 1 FROM "business_parties" p WHERE p."id" = "business_party_id"))
  );

CREATE POLICY "screening_hits_tenant_isolation" ON "screening_hits" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND EXISTS (SELECT 1 FROM "screenings" s WHERE s."id" = "screening_id")
    AND ("decision_id" IS NULL OR EXISTS (SELECT 1 FROM "hit_decisions" d WHERE d."id" = "decision_id"))
  );

CREATE POLICY "hit_decisions_tenant_isolation" ON "hit_decisions" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND ("hit_id" IS NULL OR EXISTS (SELECT 1 FROM "screening_hits" h WHERE h."id" = "hit_id"))
  );

CREATE POLICY "adverse_media_findings_tenant_isolation" ON "adverse_media_findings" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND EXISTS (SELECT 1 FROM "screenings" s WHERE s."id" = "screening_id")
  );

CREATE POLICY "risk_assessments_tenant_isolation" ON "risk_assessments" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND ("consumer_case_id" IS NULL OR EXISTS (SELECT 1 FROM "consumer_cases" c WHERE c."id" = "consumer_case_id"))
    AND ("business_case_id" IS NULL OR EXISTS (SELECT 1 FROM "business_cases" b WHERE b."id" = "business_case_id"))
  );
