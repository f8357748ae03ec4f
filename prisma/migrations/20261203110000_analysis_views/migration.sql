-- An analysis' tables, forms and identity fields, kept apart from its blocks:
-- they were read out of `result`, so asking for a table loaded every word
-- with its geometry (megabytes per analysis, a thousand analyses per page of
-- files). Analyses written before get theirs from their result, without an
-- audit record each (the data is not changed, only copied).
ALTER TABLE "document_analyses" ADD COLUMN "views" JSONB;

ALTER TABLE "document_analyses" DISABLE TRIGGER "document_analyses_audit";
UPDATE "document_analyses"
   SET "views" = "result" - 'blocks'
 WHERE "result" IS NOT NULL;
ALTER TABLE "document_analyses" ENABLE TRIGGER "document_analyses_audit";
