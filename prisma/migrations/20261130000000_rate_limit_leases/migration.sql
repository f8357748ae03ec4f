-- Rate-limit counting by leases (src/auth/rate-limit-leases.ts): an instance
-- takes a block of a window's requests from each counter at once and admits
-- that many before it counts again, so most requests authenticate without
-- writing (no read-write transaction, no commit, no lock on the
-- organization's counter row). The takes are 0 (nothing counted for that
-- counter), 1 near the limit, more far from it; the returned counts are the
-- counters after this take (NULL where nothing was taken).
--
-- The five-argument function stays for instances of the previous release
-- during a rolling deploy.
CREATE FUNCTION authenticate_request(p_hash TEXT, p_now TIMESTAMPTZ, p_window TIMESTAMPTZ, p_key_take INTEGER, p_organization_take INTEGER, p_user_id TEXT, p_request_id TEXT)
RETURNS TABLE (key_id UUID, key_organization_id UUID, key_permissions TEXT[], key_last_used_at TIMESTAMPTZ, key_label TEXT, key_prefix TEXT, key_count INTEGER, organization_count INTEGER)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  k RECORD;
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
  IF p_window IS NOT NULL AND p_key_take > 0 THEN
    v_key_count := count_rate_limit_take('key:' || k.id, p_window, p_key_take);
  END IF;
  IF p_window IS NOT NULL AND p_organization_take > 0 THEN
    v_organization_count := count_rate_limit_take('org:' || k.organization_id, p_window, p_organization_take);
  END IF;
  PERFORM set_config('app.organization_id', k.organization_id::TEXT, FALSE),
          set_config('app.actor', COALESCE(NULLIF(k.label, ''), 'API key ' || k.prefix), FALSE),
          set_config('app.api_key_id', k.id::TEXT, FALSE),
          set_config('app.user_id', COALESCE(p_user_id, ''), FALSE),
          set_config('app.request_id', COALESCE(p_request_id, ''), FALSE);
  RETURN QUERY SELECT k.id, k.organization_id, k.permissions, k.last_used_at, k.label, k.prefix, v_key_count, v_organization_count;
END $$;

-- Adds a take to one counter of a window (in place; the window's first take inserts it) and returns the new count.
CREATE FUNCTION count_rate_limit_take(p_bucket TEXT, p_window TIMESTAMPTZ, p_take INTEGER) RETURNS INTEGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_count INTEGER;
BEGIN
  UPDATE rate_limit_windows w SET count = w.count + p_take WHERE w.bucket = p_bucket AND w.window_start = p_window RETURNING w.count INTO v_count;
  IF NOT FOUND THEN
    INSERT INTO rate_limit_windows AS w (bucket, window_start, count) VALUES (p_bucket, p_window, p_take)
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = w.count + p_take RETURNING w.count INTO v_count;
  END IF;
  RETURN v_count;
END $$;

REVOKE EXECUTE ON FUNCTION count_rate_limit_take(TEXT, TIMESTAMPTZ, INTEGER) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION authenticate_request(TEXT, TIMESTAMPTZ, TIMESTAMPTZ, INTEGER, INTEGER, TEXT, TEXT) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION authenticate_request(TEXT, TIMESTAMPTZ, TIMESTAMPTZ, INTEGER, INTEGER, TEXT, TEXT) TO compliance_tenant;
