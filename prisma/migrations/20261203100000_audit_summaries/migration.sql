-- Audit records say what changed, not carry bulk: a document analysis' result
-- and text (every word with its geometry, up to megabytes) are recorded as
-- their size and checksum, and so is any other value over 128 KB. A tenant
-- could otherwise fill every read of its trail (and the table) with copies of
-- analysis results. The analysis row itself keeps the whole result.

CREATE FUNCTION audit_row_summary(row_data jsonb, table_name text) RETURNS jsonb
LANGUAGE sql IMMUTABLE SET search_path = public, pg_temp AS $$
  SELECT jsonb_object_agg(key, CASE
    WHEN jsonb_typeof(value) = 'object' AND value ? 'omitted' AND value ? 'md5' THEN value
    WHEN (table_name = 'document_analyses' AND key IN ('result', 'text_content') AND jsonb_typeof(value) <> 'null')
      OR octet_length(value::text) > 131072
    THEN jsonb_build_object('omitted', 'too large for the audit trail', 'bytes', octet_length(value::text), 'md5', md5(value::text))
    ELSE value END)
  FROM jsonb_each(row_data)
$$;

-- As in 20261128000000_audit_completeness, each row summarized.
CREATE OR REPLACE FUNCTION record_audit_event() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  before_row jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN audit_row_summary(to_jsonb(OLD) - 'secret' - 'hash' - 'token_hash', TG_TABLE_NAME) END;
  after_row jsonb := CASE WHEN TG_OP IN ('INSERT', 'UPDATE') THEN audit_row_summary(to_jsonb(NEW) - 'secret' - 'hash' - 'token_hash', TG_TABLE_NAME) END;
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

-- Records written before: summarized the same way (the checksum still ties
-- each to the value it stood for). The one change ever made to the trail, so
-- its append-only guard steps aside for this statement only.
ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_append_only";
UPDATE "audit_events"
   SET "before" = audit_row_summary("before", "resource_type"), "after" = audit_row_summary("after", "resource_type")
 WHERE "resource_type" = 'document_analyses' OR octet_length("before"::text) > 131072 OR octet_length("after"::text) > 131072;
ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_append_only";
