-- Domain events and webhooks. Triggers turn changes into events in the same
-- transaction as the change (no event without its change, no change without
-- its event), and each event becomes one delivery per subscribed endpoint.
-- The app sends deliveries through the job queue (src/webhooks/).

-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED');

-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "sequence" BIGSERIAL NOT NULL,
    -- The writing transaction: the feed orders by (transaction_id, sequence)
    -- and shows only transactions older than every running one, so a cursor
    -- never skips an event that commits late.
    "transaction_id" BIGINT NOT NULL DEFAULT (pg_current_xact_id()::text)::bigint,
    "organization_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "resource_type" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "actor" TEXT,
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "event_types" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "secret_created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'PENDING',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "enqueued_at" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "replay_of_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "webhook_delivery_attempts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "response_status" INTEGER,
    "response_body" TEXT,
    "error" TEXT,

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "events_sequence_key" ON "events"("sequence");
CREATE INDEX "events_organization_id_transaction_id_sequence_idx" ON "events"("organization_id", "transaction_id", "sequence");
CREATE INDEX "events_organization_id_type_transaction_id_sequence_idx" ON "events"("organization_id", "type", "transaction_id", "sequence");
CREATE INDEX "events_organization_id_resource_id_transaction_id_sequence_idx" ON "events"("organization_id", "resource_id", "transaction_id", "sequence");
CREATE INDEX "events_created_at_idx" ON "events"("created_at");
CREATE INDEX "webhook_endpoints_organization_id_created_at_idx" ON "webhook_endpoints"("organization_id", "created_at" DESC);
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at" DESC);
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");
CREATE INDEX "webhook_deliveries_organization_id_created_at_idx" ON "webhook_deliveries"("organization_id", "created_at" DESC);
-- The dispatcher's poll: deliveries not yet handed to the job queue.
CREATE INDEX "webhook_deliveries_enqueued_at_created_at_idx" ON "webhook_deliveries"("enqueued_at", "created_at");
CREATE INDEX "webhook_delivery_attempts_delivery_id_number_idx" ON "webhook_delivery_attempts"("delivery_id", "number");
-- The overdue sweep reads open tasks past their due date.
CREATE INDEX "tasks_status_due_date_idx" ON "tasks"("status", "due_date");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_replay_of_id_fkey" FOREIGN KEY ("replay_of_id") REFERENCES "webhook_deliveries"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One event, with who and the request from the transaction's settings.
-- Runs with its owner's rights: tenants can read events but never write them.
CREATE FUNCTION emit_event(organization UUID, event_type TEXT, resource_type TEXT, resource_id TEXT, payload JSONB) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
  INSERT INTO events (organization_id, type, resource_type, resource_id, data, actor, request_id)
  VALUES (
    organization, event_type, resource_type, resource_id, jsonb_strip_nulls(payload),
    COALESCE(NULLIF(current_setting('app.actor', TRUE), ''), 'system'), NULLIF(current_setting('app.request_id', TRUE), '')
  );
$$;

-- The events of one changed row. Payloads are thin (ids and what changed);
-- receivers fetch the resource for the rest. Keys are the API's field names.
CREATE FUNCTION record_domain_events() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_TABLE_NAME IN ('consumer_cases', 'business_cases') THEN
    DECLARE
      kind TEXT := CASE TG_TABLE_NAME WHEN 'consumer_cases' THEN 'consumer_case' ELSE 'business_case' END;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM emit_event(NEW.organization_id, kind || '.created', kind, NEW.id::text, jsonb_build_object('id', NEW.id, 'status', NEW.status));
      ELSIF TG_OP = 'UPDATE' AND NEW.status IS DISTINCT FROM OLD.status THEN
        PERFORM emit_event(NEW.organization_id, kind || '.status_changed', kind, NEW.id::text,
          jsonb_build_object('id', NEW.id, 'status', NEW.status, 'previousStatus', OLD.status));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM emit_event(OLD.organization_id, kind || '.deleted', kind, OLD.id::text, jsonb_build_object('id', OLD.id, 'status', OLD.status));
      END IF;
    END;
  ELSIF TG_TABLE_NAME = 'tasks' THEN
    IF TG_OP = 'INSERT' THEN
      PERFORM emit_event(NEW.organization_id, 'task.created', 'task', NEW.id::text, jsonb_build_object(
        'id', NEW.id, 'status', NEW.status, 'priority', NEW.priority, 'dueDate', NEW.due_date,
        'consumerCaseId', NEW.consumer_case_id, 'businessCaseId', NEW.business_case_id));
    ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
      PERFORM emit_event(NEW.organization_id, 'task.status_changed', 'task', NEW.id::text,
        jsonb_build_object('id', NEW.id, 'status', NEW.status, 'previousStatus', OLD.status));
    END IF;
  ELSIF TG_TABLE_NAME = 'task_assignees' THEN
    PERFORM emit_event(NEW.organization_id, 'task.assigned', 'task', NEW.task_id::text,
      jsonb_build_object('taskId', NEW.task_id, 'userId', NEW.user_id));
  ELSIF TG_TABLE_NAME = 'documents' THEN
    PERFORM emit_event(NEW.organization_id, 'document.created', 'document', NEW.id::text, jsonb_build_object(
      'id', NEW.id, 'type', NEW.type, 'fileId', NEW.file_id, 'consumerCaseId', NEW.consumer_case_id, 'businessCaseId', NEW.business_case_id));
  ELSIF TG_TABLE_NAME = 'document_analyses' THEN
    IF NEW.status IN ('SUCCEEDED', 'FAILED') AND NEW.status IS DISTINCT FROM OLD.status THEN
      PERFORM emit_event(NEW.organization_id, 'document.analyzed', 'document_analysis', NEW.id::text, jsonb_build_object(
        'analysisId', NEW.id, 'fileId', NEW.file_id, 'kind', NEW.kind, 'status', NEW.status,
        'documentIds', (SELECT COALESCE(jsonb_agg(d.id ORDER BY d.id), '[]'::jsonb) FROM documents d WHERE d.file_id = NEW.file_id)));
    END IF;
  ELSIF TG_TABLE_NAME = 'screenings' THEN
    DECLARE
      summary JSONB := jsonb_build_object(
        'id', NEW.id, 'target', NEW.target, 'trigger', NEW.trigger, 'outcome', NEW.outcome, 'hitCount', NEW.hit_count,
        'consumerCaseId', NEW.consumer_case_id, 'businessCaseId', NEW.business_case_id, 'businessPartyId', NEW.business_party_id);
    BEGIN
      PERFORM emit_event(NEW.organization_id, 'screening.completed', 'screening', NEW.id::text, summary);
      IF NEW.hit_count > 0 THEN
        PERFORM emit_event(NEW.organization_id, 'screening.hit_found', 'screening', NEW.id::text, summary);
      END IF;
    END;
  ELSIF TG_TABLE_NAME = 'screening_hits' THEN
    IF NEW.status IS DISTINCT FROM OLD.status THEN
      PERFORM emit_event(NEW.organization_id, 'screening.hit_reviewed', 'screening_hit', NEW.id::text, jsonb_build_object(
        'id', NEW.id, 'screeningId', NEW.screening_id, 'status', NEW.status, 'previousStatus', OLD.status));
    END IF;
  ELSIF TG_TABLE_NAME = 'risk_assessments' THEN
    PERFORM emit_event(NEW.organization_id, 'risk_assessment.completed', 'risk_assessment', NEW.id::text, jsonb_build_object(
      'id', NEW.id, 'level', NEW.level, 'riskScore', NEW.risk_score,
      'consumerCaseId', NEW.consumer_case_id, 'businessCaseId', NEW.business_case_id));
  ELSIF TG_TABLE_NAME = 'onboarding_invitations' THEN
    IF NEW.submitted_at IS NOT NULL AND OLD.submitted_at IS NULL THEN
      PERFORM emit_event(NEW.organization_id, 'onboarding.submitted', 'consumer_case', NEW.consumer_case_id::text,
        jsonb_build_object('consumerCaseId', NEW.consumer_case_id, 'invitationId', NEW.id, 'submittedAt', NEW.submitted_at));
    END IF;
    IF NEW.checks_completed_at IS NOT NULL AND OLD.checks_completed_at IS NULL THEN
      PERFORM emit_event(NEW.organization_id, 'onboarding.checks_completed', 'consumer_case', NEW.consumer_case_id::text,
        jsonb_build_object('consumerCaseId', NEW.consumer_case_id, 'invitationId', NEW.id));
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "consumer_cases_events" AFTER INSERT OR UPDATE OR DELETE ON "consumer_cases" FOR EACH ROW EXECUTE FUNCTION record_domain_events();
CREATE TRIGGER "business_cases_events" AFTER INSERT OR UPDATE OR DELETE ON "business_cases" FOR EACH ROW EXECUTE FUNCTION record_domain_events();
CREATE TRIGGER "tasks_events" AFTER INSERT OR UPDATE ON "tasks" FOR EACH ROW EXECUTE FUNCTION record_domain_events();
CREATE TRIGGER "task_assignees_events" AFTER INSERT ON "task_assignees" FOR EACH ROW EXECUTE FUNCTION record_domain_events();
CREATE TRIGGER "documents_events" AFTER INSERT ON "documents" FOR EACH ROW EXECUTE FUNCTION record_domain_events();
CREATE TRIGGER "document_analyses_events" AFTER UPDATE ON "document_analyses" FOR EACH ROW EXECUTE FUNCTION record_domain_events();
CREATE TRIGGER "screenings_events" AFTER INSERT ON "screenings" FOR EACH ROW EXECUTE FUNCTION record_domain_events();
CREATE TRIGGER "screening_hits_events" AFTER UPDATE ON "screening_hits" FOR EACH ROW EXECUTE FUNCTION record_domain_events();
CREATE TRIGGER "risk_assessments_events" AFTER INSERT ON "risk_assessments" FOR EACH ROW EXECUTE FUNCTION record_domain_events();
CREATE TRIGGER "onboarding_invitations_events" AFTER UPDATE ON "onboarding_invitations" FOR EACH ROW
  WHEN (OLD."submitted_at" IS DISTINCT FROM NEW."submitted_at" OR OLD."checks_completed_at" IS DISTINCT FROM NEW."checks_completed_at")
  EXECUTE FUNCTION record_domain_events();

-- Fan-out: one delivery per enabled endpoint subscribed to the event's type ('*' is every type).
CREATE FUNCTION plan_webhook_deliveries() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  INSERT INTO webhook_deliveries (organization_id, endpoint_id, event_id)
  SELECT NEW.organization_id, e.id, NEW.id FROM webhook_endpoints e
  WHERE e.organization_id = NEW.organization_id AND e.enabled AND (NEW.type = ANY (e.event_types) OR '*' = ANY (e.event_types));
  RETURN NULL;
END $$;

-- Only triggers (running as the owner) and the app's own role emit events.
REVOKE EXECUTE ON FUNCTION emit_event(UUID, TEXT, TEXT, TEXT, JSONB) FROM PUBLIC;

CREATE TRIGGER "events_webhook_deliveries" AFTER INSERT ON "events" FOR EACH ROW EXECUTE FUNCTION plan_webhook_deliveries();

-- Audit: endpoint changes are changes like any other, but a signing secret
-- never enters the record (the same function as before, minus `secret`).
CREATE OR REPLACE FUNCTION record_audit_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  before_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) - 'secret' END;
  after_row jsonb := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN to_jsonb(NEW) - 'secret' END;
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

CREATE TRIGGER "webhook_endpoints_audit" AFTER INSERT OR UPDATE OR DELETE ON "webhook_endpoints" FOR EACH ROW EXECUTE FUNCTION record_audit_event();

-- Row-level security. Tenants read events, deliveries and attempts; they
-- manage endpoints and may queue a replay (a new delivery of an existing event
-- to one of their endpoints); only the app's own role sends and records.
GRANT SELECT ON "events", "webhook_delivery_attempts" TO compliance_tenant;
GRANT SELECT, INSERT ON "webhook_deliveries" TO compliance_tenant;
GRANT SELECT, INSERT, UPDATE, DELETE ON "webhook_endpoints" TO compliance_tenant;
ALTER TABLE "events" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "webhook_endpoints" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "webhook_deliveries" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "webhook_delivery_attempts" ENABLE ROW LEVEL SECURITY;

CREATE POLICY "events_tenant_isolation" ON "events" FOR SELECT TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid);
CREATE POLICY "webhook_endpoints_tenant_isolation" ON "webhook_endpoints" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid);
CREATE POLICY "webhook_deliveries_tenant_isolation" ON "webhook_deliveries" TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid)
  WITH CHECK (
    "organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid
    AND EXISTS (SELECT 1 FROM "webhook_endpoints" w WHERE w."id" = "endpoint_id")
    AND EXISTS (SELECT 1 FROM "events" e WHERE e."id" = "event_id")
  );
CREATE POLICY "webhook_delivery_attempts_tenant_isolation" ON "webhook_delivery_attempts" FOR SELECT TO compliance_tenant
  USING ("organization_id" = NULLIF(current_setting('app.organization_id', TRUE), '')::uuid);
