-- Row-level security is forced on every table that has it, so the role that
-- owns the tables (the one the service connects as and migrates with) is held
-- to the policies too. Unforced, an owner passes every policy without a word:
-- any query, SECURITY DEFINER function or tool connected as the owner read
-- and wrote every organization's rows, and nothing in the database said so.
--
-- Forced, an owner with no policy of its own sees nothing. The service's own
-- work (jobs, key look-up, the operator command, the definer functions) goes
-- through one explicit grant instead: the NOLOGIN role compliance_system,
-- whose policies below pass every row, granted to the connecting role and
-- never to compliance_tenant. A request's SET ROLE compliance_tenant leaves
-- it behind, so only the tenant policies apply there; revoking it from a role
-- takes that role's reach into tenant rows away. Superusers and BYPASSRLS
-- roles pass every policy whatever this says: the service warns when it
-- connects as one (docs/database.md).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'compliance_system') THEN
    IF NOT (SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user) THEN
      RAISE EXCEPTION 'role compliance_system does not exist'
        USING HINT = 'An administrator sets the database up once: npm run db:setup (docs/database.md).';
    END IF;
    CREATE ROLE compliance_system NOLOGIN;
  END IF;
  -- A superuser has every role's rights already (and passes every policy).
  IF NOT pg_has_role(current_user, 'compliance_system', 'USAGE') THEN
    GRANT compliance_system TO CURRENT_USER;
  END IF;
END
$$;

-- Every table with row-level security, so none is left out: each gets the
-- system role's policy and FORCE. (tests/database/row-level-security.test.ts
-- checks that every such table has both.)
DO $$
DECLARE
  target record;
BEGIN
  FOR target IN
    SELECT c.oid::regclass AS name, c.relname FROM pg_class c
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relrowsecurity
     ORDER BY c.relname
  LOOP
    EXECUTE format('CREATE POLICY %I ON %s TO compliance_system USING (true) WITH CHECK (true)', target.relname || '_system_access', target.name);
    EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', target.name);
  END LOOP;
END
$$;
