-- One round trip opens a request: the API key is checked, the request counted
-- for the rate limits, and the connection it ran on becomes the request's
-- tenant session (src/db/tenant-sessions.ts): its settings name the
-- organization and who acts, so the request's reads need no BEGIN, setup
-- statement or COMMIT of their own. Runs as its owner (tenants cannot read
-- api_keys or write the counters); callable by the tenant role. Counting
-- updates the window's two counters in place; only the first request of a
-- window inserts them.
CREATE FUNCTION authenticate_request(p_hash TEXT, p_now TIMESTAMPTZ, p_window TIMESTAMPTZ, p_user_id TEXT, p_request_id TEXT)
RETURNS TABLE (key_id UUID, key_organization_id UUID, key_permissions TEXT[], key_last_used_at TIMESTAMPTZ, key_label TEXT, key_prefix TEXT, key_count INTEGER, organization_count INTEGER)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  k RECORD;
  v_key_bucket TEXT;
  v_organization_bucket TEXT;
  v_key_count INTEGER;
  v_organization_count INTEGER;
BEGIN
  SELECT a.id, a.organization_id, a.permissions, a.last_used_at, a.label, a.prefix INTO k
    FROM api_keys a
   WHERE a.hash = p_hash AND a.revoked_at IS NULL AND (a.expires_at IS NULL OR a.expires_at > p_now);
  IF NOT FOUND THEN
    -- No key, no organization: the connection's earlier settings do not outlive this.
    PERFORM set_config('app.organization_id', '', FALSE), set_config('app.actor', '', FALSE), set_config('app.api_key_id', '', FALSE),
            set_config('app.user_id', '', FALSE), set_config('app.request_id', '', FALSE);
    RETURN;
  END IF;
  IF p_window IS NOT NULL THEN
    v_key_bucket := 'key:' || k.id;
    v_organization_bucket := 'org:' || k.organization_id;
    UPDATE rate_limit_windows w SET count = w.count + 1 WHERE w.bucket = v_key_bucket AND w.window_start = p_window RETURNING w.count INTO v_key_count;
    IF NOT FOUND THEN
      INSERT INTO rate_limit_windows AS w (bucket, window_start, count) VALUES (v_key_bucket, p_window, 1)
      ON CONFLICT (bucket, window_start) DO UPDATE SET count = w.count + 1 RETURNING w.count INTO v_key_count;
    END IF;
    UPDATE rate_limit_windows w SET count = w.count + 1 WHERE w.bucket = v_organization_bucket AND w.window_start = p_window RETURNING w.count INTO v_organization_count;
    IF NOT FOUND THEN
      INSERT INTO rate_limit_windows AS w (bucket, window_start, count) VALUES (v_organization_bucket, p_window, 1)
      ON CONFLICT (bucket, window_start) DO UPDATE SET count = w.count + 1 RETURNING w.count INTO v_organization_count;
    END IF;
  END IF;
  PERFORM set_config('app.organization_id', k.organization_id::TEXT, FALSE),
          set_config('app.actor', COALESCE(NULLIF(k.label, ''), 'API key ' || k.prefix), FALSE),
          set_config('app.api_key_id', k.id::TEXT, FALSE),
          set_config('app.user_id', COALESCE(p_user_id, ''), FALSE),
          set_config('app.request_id', COALESCE(p_request_id, ''), FALSE);
  RETURN QUERY SELECT k.id, k.organization_id, k.permissions, k.last_used_at, k.label, k.prefix, v_key_count, v_organization_count;
END $$;

REVOKE EXECUTE ON FUNCTION authenticate_request(TEXT, TIMESTAMPTZ, TIMESTAMPTZ, TEXT, TEXT) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION authenticate_request(TEXT, TIMESTAMPTZ, TIMESTAMPTZ, TEXT, TEXT) TO compliance_tenant;
