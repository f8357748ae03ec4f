-- Audit trail, completed: who is the API key (its id, not only its name, which
-- a rotated key shares) and the integrator's user (X-User-Id); the remaining
-- tables that API calls and the operator command change; and append-only for
-- every role, the app's own included.

-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN "api_key_id" UUID,
ADD COLUMN "user_id" TEXT;

-- CreateIndex
CREATE INDEX "audit_events_organization_id_user_id_created_at_idx" ON "audit_events"("organization_id", "user_id", "created_at" DESC);

-- Secrets and lookup hashes never enter the record.
CREATE OR REPLACE FUNCTION record_audit_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  before_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) - 'secret' - 'hash' - 'token_hash' END;
  after_row jsonb := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN to_jsonb(NEW) - 'secret' - 'hash' - 'token_hash' END;
  subject jsonb := COALESCE(after_row, before_row);
BEGIN
  -- An update that changed nothing but its timestamp is not a change.
  IF TG_OP = 'UPDATE' AND (before_row - 'updated_at') = (after_row - 'updated_at') THEN
    RETURN NULL;
  END IF;
  INSERT INTO audit_events (organization_id, resource_type, resource_id, action, actor, api_key_id, user_id, request_id, before, after)
  VALUES (
    (subject->>'organization_id')::uuid, TG_TABLE_NAME, COALESCE(subject->>'id', subject->>'task_id'),
    (CASE TG_OP WHEN 'INSERT' THEN 'CREATE' WHEN 'UPDATE' THEN 'UPDATE' ELSE 'DELETE' END)::"AuditAction",
    COALESCE(NULLIF(current_setting('app.actor', TRUE), ''), 'system'),
    NULLIF(current_setting('app.api_key_id', TRUE), '')::uuid,
    NULLIF(current_setting('app.user_id', TRUE), ''),
    NULLIF(current_setting('app.request_id', TRUE), ''),
    before_row, after_row
  );
  RETURN NULL;
END $$;

CREATE TRIGGER "screenings_audit" AFTER INSERT OR UPDATE OR DELETE ON "screenings" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "adverse_media_findings_audit" AFTER INSERT OR UPDATE OR DELETE ON "adverse_media_findings" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "risk_assessments_audit" AFTER INSERT OR UPDATE OR DELETE ON "risk_assessments" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "document_analyses_audit" AFTER INSERT OR UPDATE OR DELETE ON "document_analyses" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
-- Deliveries the platform plans and sends are logged with their attempts; a
-- replay is a request of someone's, so it is audited.
CREATE TRIGGER "webhook_deliveries_audit" AFTER INSERT ON "webhook_deliveries" FOR EACH ROW
  WHEN (NEW."replay_of_id" IS NOT NULL)
  EXECUTE FUNCTION record_audit_event();
-- Keys: creation, rotation, revocation and deletion, not the last-used clock.
CREATE TRIGGER "api_keys_audit" AFTER INSERT OR DELETE ON "api_keys" FOR EACH ROW EXECUTE FUNCTION record_audit_event();
CREATE TRIGGER "api_keys_audit_changes" AFTER UPDATE ON "api_keys" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
  EXECUTE FUNCTION record_audit_event();

-- Append-only for everyone: no role changes or removes a record.
CREATE FUNCTION refuse_audit_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION refuse_audit_change();
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events" FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change();
