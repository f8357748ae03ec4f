-- Webhook deliveries fair per organization, cancelled in bulk (src/webhooks/dispatch.ts).
-- The job queue no longer holds a delivery from its first attempt to its last:
-- each attempt is one job, handed over when due, and an organization has at
-- most a few queued or running at a time. Waiting for a retry, a delivery is
-- a row here (next_attempt_at), not a job ahead of other organizations' work.

ALTER TABLE "webhook_deliveries"
  ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  -- The job of the attempt queued or running now; only that job may attempt the delivery.
  ADD COLUMN "job_id" UUID;

-- Deliveries the previous dispatcher queued: their job's id is the delivery's.
UPDATE "webhook_deliveries" SET "job_id" = "id" WHERE "status" = 'PENDING' AND "enqueued_at" IS NOT NULL;

DROP INDEX "webhook_deliveries_enqueued_at_created_at_idx";
CREATE UNIQUE INDEX "webhook_deliveries_job_id_key" ON "webhook_deliveries"("job_id");
-- The dispatcher's poll: per organization, deliveries waiting for their next attempt.
CREATE INDEX "webhook_deliveries_organization_id_next_attempt_at_idx" ON "webhook_deliveries"("organization_id", "next_attempt_at")
  WHERE "status" = 'PENDING' AND "enqueued_at" IS NULL;
-- Per organization, the deliveries with an attempt queued or running (the dispatcher's cap, the lost-job sweep).
CREATE INDEX "webhook_deliveries_organization_id_enqueued_at_idx" ON "webhook_deliveries"("organization_id", "enqueued_at")
  WHERE "status" = 'PENDING' AND "enqueued_at" IS NOT NULL;

-- Disabling an endpoint cancels everything it had pending, in one statement
-- with the change (their queued jobs are cancelled by the next dispatch).
-- Deleting one deletes its deliveries (the foreign key cascades).
CREATE FUNCTION cancel_pending_webhook_deliveries() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  UPDATE webhook_deliveries SET status = 'CANCELLED' WHERE endpoint_id = NEW.id AND status = 'PENDING';
  RETURN NULL;
END $$;

CREATE TRIGGER "webhook_endpoints_cancel_deliveries" AFTER UPDATE OF "enabled" ON "webhook_endpoints" FOR EACH ROW
  WHEN (OLD."enabled" AND NOT NEW."enabled") EXECUTE FUNCTION cancel_pending_webhook_deliveries();

-- What the delivery log keeps of an answer is now short (src/webhooks/post-webhook.ts); so is what it kept.
UPDATE "webhook_delivery_attempts" SET "response_body" = left("response_body", 200) WHERE length("response_body") > 200;
