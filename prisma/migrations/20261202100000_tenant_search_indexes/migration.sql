-- Searches cost what the caller's own rows cost, whatever other organizations
-- hold (src/db/text-search.ts). Two things made a search's time tell whether
-- another organization had rows with the searched word:
--
-- 1. The trigram indexes held every organization's rows: a scan of one
--    fetched each row with the word, and row-level security then dropped the
--    other organizations' rows one by one. Each index is now a GiST index led
--    by organization_id (btree_gist): its tree is divided by organization
--    first, so a search descends only into the caller's part of it and
--    fetches only the caller's rows. (A GIN index led by organization_id does
--    not do that: its trigram keys are shared by every organization, and a
--    scan still reads, and intersects, every organization's entries for
--    them: measured with 50,000 rows of another organization holding the
--    word, a page and its count took 3.0 ms, against 0.5 ms for a word
--    nobody has; 0.8 ms for both with this index.)
-- 2. The planner estimated a pattern's matches from the column's statistics
--    (its most common values and histogram, every organization's), and chose
--    a different plan when the word was common elsewhere: a scan of the whole
--    table, or of the index. The searched columns keep no statistics now, and
--    neither does the organization: a pattern is estimated from the pattern
--    alone, and an organization as a small share of the table, so searches
--    are planned on the organization's indexes whatever other organizations
--    hold (words or sizes).
CREATE EXTENSION IF NOT EXISTS btree_gist;

DROP INDEX "consumer_cases_email_trgm_idx";
DROP INDEX "consumer_cases_first_name_trgm_idx";
DROP INDEX "consumer_cases_last_name_trgm_idx";
DROP INDEX "business_cases_legal_name_trgm_idx";
DROP INDEX "business_cases_dba_name_trgm_idx";
DROP INDEX "business_cases_registration_number_trgm_idx";
DROP INDEX "tasks_title_trgm_idx";
DROP INDEX "notes_body_trgm_idx";
DROP INDEX "files_file_name_trgm_idx";

CREATE INDEX "consumer_cases_email_trgm_idx" ON "consumer_cases" USING GIST ("organization_id", "email" gist_trgm_ops);
CREATE INDEX "consumer_cases_first_name_trgm_idx" ON "consumer_cases" USING GIST ("organization_id", "first_name" gist_trgm_ops);
CREATE INDEX "consumer_cases_last_name_trgm_idx" ON "consumer_cases" USING GIST ("organization_id", "last_name" gist_trgm_ops);
CREATE INDEX "business_cases_legal_name_trgm_idx" ON "business_cases" USING GIST ("organization_id", "legal_name" gist_trgm_ops);
CREATE INDEX "business_cases_dba_name_trgm_idx" ON "business_cases" USING GIST ("organization_id", "dba_name" gist_trgm_ops);
CREATE INDEX "business_cases_registration_number_trgm_idx" ON "business_cases" USING GIST ("organization_id", "registration_number" gist_trgm_ops);
CREATE INDEX "tasks_title_trgm_idx" ON "tasks" USING GIST ("organization_id", "title" gist_trgm_ops);
-- Task search matches the description too; without an index of its own, a search read all the organization's tasks.
CREATE INDEX "tasks_description_trgm_idx" ON "tasks" USING GIST ("organization_id", "description" gist_trgm_ops);
CREATE INDEX "notes_body_trgm_idx" ON "notes" USING GIST ("organization_id", "body" gist_trgm_ops);
CREATE INDEX "files_file_name_trgm_idx" ON "files" USING GIST ("organization_id", "file_name" gist_trgm_ops);

ALTER TABLE "consumer_cases" ALTER COLUMN "organization_id" SET STATISTICS 0,
  ALTER COLUMN "email" SET STATISTICS 0, ALTER COLUMN "first_name" SET STATISTICS 0, ALTER COLUMN "last_name" SET STATISTICS 0;
ALTER TABLE "business_cases" ALTER COLUMN "organization_id" SET STATISTICS 0,
  ALTER COLUMN "legal_name" SET STATISTICS 0, ALTER COLUMN "dba_name" SET STATISTICS 0, ALTER COLUMN "registration_number" SET STATISTICS 0;
ALTER TABLE "tasks" ALTER COLUMN "organization_id" SET STATISTICS 0, ALTER COLUMN "title" SET STATISTICS 0, ALTER COLUMN "description" SET STATISTICS 0;
ALTER TABLE "notes" ALTER COLUMN "organization_id" SET STATISTICS 0, ALTER COLUMN "body" SET STATISTICS 0;
ALTER TABLE "files" ALTER COLUMN "organization_id" SET STATISTICS 0, ALTER COLUMN "file_name" SET STATISTICS 0;

-- What ANALYZE has already gathered stays until removed: PostgreSQL 18's
-- pg_clear_attribute_stats does that for the tables' owner. Older servers
-- have no such function; a superuser deletes the rows itself, anyone else
-- leaves them to an administrator (docs/database.md).
DO $$
DECLARE
  kept record;
BEGIN
  FOR kept IN
    SELECT c.oid AS table_oid, c.relname AS table_name, a.attnum, a.attname AS column_name
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.relnamespace = 'public'::regnamespace AND a.attstattarget = 0
       AND c.relname IN ('consumer_cases', 'business_cases', 'tasks', 'notes', 'files')
  LOOP
    IF to_regprocedure('pg_catalog.pg_clear_attribute_stats(text, text, text, boolean)') IS NOT NULL THEN
      PERFORM pg_catalog.pg_clear_attribute_stats('public', kept.table_name, kept.column_name, false);
    ELSIF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
      DELETE FROM pg_catalog.pg_statistic WHERE starelid = kept.table_oid AND staattnum = kept.attnum;
    END IF;
  END LOOP;
END
$$;
