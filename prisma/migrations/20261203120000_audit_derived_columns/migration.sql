-- Columns derived from others are recorded in the audit trail as size and
-- checksum, like analysis results: a note's rendered HTML (from its body,
-- which is recorded whole) and an analysis' table/form views (from its
-- result). Otherwise every note edit would copy up to 200 KB of HTML into
-- the trail, which the body already accounts for.
CREATE OR REPLACE FUNCTION audit_row_summary(row_data jsonb, table_name text) RETURNS jsonb
LANGUAGE sql IMMUTABLE SET search_path = public, pg_temp AS $$
  SELECT jsonb_object_agg(key, CASE
    WHEN jsonb_typeof(value) = 'object' AND value ? 'omitted' AND value ? 'md5' THEN value
    WHEN jsonb_typeof(value) <> 'null' AND ((table_name = 'notes' AND key = 'body_html') OR (table_name = 'document_analyses' AND key = 'views'))
    THEN jsonb_build_object('omitted', 'derived from the columns recorded beside it', 'bytes', octet_length(value::text), 'md5', md5(value::text))
    WHEN (table_name = 'document_analyses' AND key IN ('result', 'text_content') AND jsonb_typeof(value) <> 'null')
      OR octet_length(value::text) > 131072
    THEN jsonb_build_object('omitted', 'too large for the audit trail', 'bytes', octet_length(value::text), 'md5', md5(value::text))
    ELSE value END)
  FROM jsonb_each(row_data)
$$;
