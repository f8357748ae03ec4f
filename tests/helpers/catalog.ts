import pg from 'pg';

/** What PostgreSQL says the public schema looks like, in comparable strings. */
export async function readCatalog(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const columns = await client.query<{
      table_name: string; column_name: string; data_type: string; udt_name: string;
      is_nullable: string; column_default: string | null; character_maximum_length: number | null; datetime_precision: number | null;
    }>(`SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, character_maximum_length, datetime_precision
        FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`);
    const enums = await client.query<{ name: string; values: string[] }>(
      `SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS values
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
       WHERE n.nspname = 'public' GROUP BY t.typname`,
    );
    const indexes = await client.query<{
      table: string; name: string; primary: boolean; unique: boolean; method: string;
      columns: string[]; descending: boolean[]; opclasses: (string | null)[];
    }>(`SELECT t.relname AS table, i.relname AS name, ix.indisprimary AS primary, ix.indisunique AS unique, am.amname AS method,
          array(SELECT a.attname::text FROM unnest(ix.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
          array(SELECT (o & 1) = 1 FROM unnest(ix.indoption::int2[]) WITH ORDINALITY x(o, ord) ORDER BY x.ord) AS descending,
          -- Default classes unnamed, except outside btree (the schema spells btree_gist's gist_uuid_ops out).
          array(SELECT CASE WHEN oc.opcdefault AND am.amname = 'btree' THEN NULL ELSE oc.opcname::text END
                FROM unnest(ix.indclass::oid[]) WITH ORDINALITY c(opc, ord) JOIN pg_opclass oc ON oc.oid = c.opc ORDER BY c.ord) AS opclasses
        FROM pg_index ix
        JOIN pg_class i ON i.oid = ix.indexrelid
        JOIN pg_class t ON t.oid = ix.indrelid
        JOIN pg_am am ON am.oid = i.relam
        JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'`);
    const foreignKeys = await client.query<{
      table: string; columns: string[]; referenced_table: string; referenced_columns: string[]; on_delete: string; on_update: string;
    }>(`SELECT t.relname AS table, rt.relname AS referenced_table,
          array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
          array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(attnum, ord)
                JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.ord) AS referenced_columns,
          c.confdeltype AS on_delete, c.confupdtype AS on_update
        FROM pg_constraint c
        JOIN pg_class t ON t.oid = c.conrelid
        JOIN pg_class rt ON rt.oid = c.confrelid
        JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE c.contype = 'f' AND n.nspname = 'public'`);
    return { columns: columns.rows, enums: enums.rows, indexes: indexes.rows, foreignKeys: foreignKeys.rows };
  } finally {
    await client.end();
  }
}
