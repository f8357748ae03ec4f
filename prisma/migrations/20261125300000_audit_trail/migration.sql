-- Audit trail: every change to an organization's data, recorded by triggers in
-- the same transaction, with who (app.actor) and the request id (app.request_id)
-- that the app sets per transaction. Tenants may only read it.

-- CreateEnum
CREATE TYPE "AuditAction" AS ENUM ('CREATE', 'UPDATE', 'DELETE');

-- CreateTable
CREATE TABLE "audit_events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "resource_type" TEXT NOT NULL,
    "resource_id" TEXT,
    "action" "AuditAction" NOT NULL,
    "actor" TEXT,
    "request_id" TEXT,
    "before" JSONB,
    "after" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_events_organization_id_resource_type_resource_id_created_at_idx" ON "audit_events"("organization_id", "resource_type", "resource_id", "created_at" DESC);
CREATE INDEX "audit_events_organization_id_created_at_id_idx" ON "audit_events"("organization_id", "created_at" DESC, "id" DESC);

-- Written only by this function (it runs with its owner's rights), never by tenants.
CREATE FUNCTION record_audit_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  before_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END;
  after_row jsonb := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN to_jsonb(NEW) END;
  subject jsonb := COALESCE(after_row, before_row);
BEGIN
  -- An update that changed nothing but its timestamp is not a change.
  IF TG_OP = 'UPDATE' AND (before_row - 'updated_at') = (after_row - 'updated_at') THEN
    RETURN NULL;
  END IF;
  INSERT INTO audit_events (organization_id, resource_type, resource_id, action, actor, request_id, before, after)
  VALUES (
    (subject->>'organization_id')::uuid, TG_TABLE_NAME, COALESCE(subject->>'id', subject->>'task_id'),
    (CASE TG_OP WHEN 'INSERT' THEN 'CREATE' WHEN 'UPDATE' THEN 'UPDATE' ELSE 'DELETE' END)::"AuditAction",
    COALESCE(NULLIF(current_setting('app.actor', TRUE), ''), 'system'), NULLIF(current_setting('app.request_id', TRUE), ''),
    before_row, after_row
  );
  RETURN NULL;
END $$;

CREATE TRIGGER "consumer_cases_audit" AFTER INSERT OR UPDATE OR DELETE ON "consumer_cases" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "business_cases_audit" AFTER INSERT OR UPDATE OR DELETE ON "business_cases" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "business_parties_audit" AFTER INSERT OR UPDATE OR DELETE ON "business_parties" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "party_holdings_audit" AFTER INSERT OR UPDATE OR DELETE ON "party_holdings" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "tasks_audit" AFTER INSERT OR UPDATE OR DELETE ON "tasks" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "task_assignees_audit" AFTER INSERT OR UPDATE OR DELETE ON "task_assignees" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "notes_audit" AFTER INSERT OR UPDATE OR DELETE ON "notes" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "files_audit" AFTER INSERT OR UPDATE OR DELETE ON "files" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "documents_audit" AFTER INSERT OR UPDATE OR DELETE ON "documents" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "screening_settings_audit" AFTER INSERT OR UPDATE OR DELETE ON "screening_settings" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "hit_decisions_audit" AFTER INSERT OR UPDATE OR DELETE ON "hit_decisions" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "screening_hits_audit" AFTER INSERT OR UPDATE OR DELETE ON "screening_hits" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
-- Onboarding invitations: their creation, submission and replacement, not every draft save.
CREATE TRIGGER "onboarding_invitations_audit" AFTER INSERT OR DELETE ON "onboarding_invitations" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "onboarding_invitations_audit_closing" AFTER UPDATE ON "onboarding_invitations" FOR EACH ROW
  WHEN (OLD."submitted_at" IS DISTINCT FROM NEW."submitted_at" OR OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at")
  EXECUTE FUNCTION record_audit_event();

-- Row-level security: each organization reads its own events; nobody writes but the trigger.
GRANT SELECT ON "audit_events" TO compliance_tenant;
ALTER TABLE "audit_events" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "audit_events_tenant_isolation" ON "audit_events" FOR SELECT TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid);
